import { describe, expect, it } from "vitest";
import { Statements, Store } from "./store.ts";

describe("a store that records undo", () => {
  const offers = () => {
    const store = new Store("chain_offers", ["collection", "token_id", "buyer"], []);
    store.keepLoaded = true;
    return store;
  };

  it("records the row it loaded as the prior, and null for a key it read and found absent", () => {
    const store = offers();
    store.read.add("0xc:1:0xa"); // asked for, not stored: the batch creates it
    store.adopt({ collection: "0xc", token_id: "2", buyer: "0xb", status: "active" });
    store.set({ collection: "0xc", token_id: "1", buyer: "0xa", status: "active" });
    const row = store.get("0xc:2:0xb") as Record<string, unknown>;
    row.status = "cancelled";
    store.touch(row);
    expect(store.changes()).toEqual([
      { key: "0xc:1:0xa", prior: null },
      { key: "0xc:2:0xb", prior: { collection: "0xc", token_id: "2", buyer: "0xb", status: "active" } },
    ]);
  });

  it("refuses a changed or deleted row whose stored state it never read, instead of recording it as new", () => {
    const store = offers();
    store.set({ collection: "0xc", token_id: "1", buyer: "0xa", status: "cancelled" });
    expect(() => store.changes()).toThrow(
      /chain_offers: row 0xc:1:0xa changed without its stored row loaded/,
    );
    const other = offers();
    other.rows.set("0xc:3:0xd", { collection: "0xc", token_id: "3", buyer: "0xd" });
    other.delete("0xc:3:0xd");
    expect(() => other.changes()).toThrow(/row 0xc:3:0xd changed without its stored row loaded/);
  });
});

describe("a batch's statements", () => {
  it("send nothing once closed: the waiting ones and any added later reject, the running one ends first", async () => {
    const sent: string[] = [];
    let finish = () => {};
    const client = {
      query(text: string) {
        sent.push(text);
        return new Promise((resolve) => {
          finish = () => resolve({ rows: [] });
        });
      },
    };
    const statements = new Statements(client as never);
    const running = statements.query("COPY chain_events");
    const waiting = statements.query("COPY chain_activity");
    waiting.catch(() => {});
    await new Promise((resolve) => setImmediate(resolve)); // the first one is on the connection
    let closed = false;
    const close = statements.close().then(() => {
      closed = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(closed).toBe(false); // a ROLLBACK after close() comes after the COPY still running
    finish();
    await running;
    await close;
    await expect(waiting).rejects.toThrow(/closed/);
    await expect(statements.query("INSERT INTO chain_tokens")).rejects.toThrow(/closed/);
    expect(sent).toEqual(["COPY chain_events"]);
  });

  it("reject the statements after a failure, and done() with it", async () => {
    const sent: string[] = [];
    const client = {
      query: async (text: string) => {
        sent.push(text);
        if (text === "bad") throw new Error("syntax error");
        return { rows: [] };
      },
    };
    const statements = new Statements(client as never);
    const bad = statements.query("bad");
    const after = statements.query("good");
    await expect(bad).rejects.toThrow(/syntax error/);
    await expect(after).rejects.toThrow(/syntax error/);
    await expect(statements.done()).rejects.toThrow(/syntax error/);
    expect(sent).toEqual(["bad"]);
  });
});

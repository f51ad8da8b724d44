import { describe, expect, it } from "vitest";
import { Store } from "./store.ts";

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

import pg from "pg";
import { afterAll, describe, expect, inject, it } from "vitest";
import { ChainListener, LISTENER_NAME } from "./live.ts";
import { CHAIN_CHANNEL, type ChainNotice } from "./notice.ts";

const admin = new pg.Client({ connectionString: inject("databaseUrl") });
afterAll(() => admin.end());

describe("live updates after the LISTEN connection is cut", () => {
  it("reconnects, tells every stream to refresh everything, and delivers the next notices", async () => {
    await admin.connect();
    const listener = new ChainListener(inject("databaseUrl"));
    const received: ChainNotice[] = [];
    listener.subscribe({ account: "0xabc" }, (notice) => received.push(notice));
    const notify = (notice: ChainNotice) =>
      admin.query("SELECT pg_notify($1, $2)", [CHAIN_CHANNEL, JSON.stringify(notice)]);
    const until = async (condition: () => boolean) => {
      for (let i = 0; i < 200 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 25));
      expect(condition()).toBe(true);
    };
    const listening = async () =>
      (
        await admin.query("SELECT pid FROM pg_stat_activity WHERE application_name = $1", [LISTENER_NAME])
      ).rows.map((r) => r.pid as number);
    try {
      for (let i = 0; i < 100 && (await listening()).length === 0; i++)
        await new Promise((r) => setTimeout(r, 25));
      await notify({ from: "1", to: "1", accounts: ["0xabc"] });
      await until(() => received.length === 1);

      // The connection is cut twice in a row: each time the streams hear "refresh everything".
      for (const round of [1, 2]) {
        const before = await listening();
        await admin.query("SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) AS pid", [before]);
        await notify({ from: "2", to: "2", accounts: ["0xabc"] }); // sent in the gap: nobody hears it
        await until(() => received.filter((n) => n.all).length === round);
        await notify({ from: "3", to: "3", accounts: ["0xabc"] });
        await until(() => received.filter((n) => n.from === "3").length === round);
      }
    } finally {
      await listener.close();
    }
  });
});

import { parseEther } from "viem";
import { afterAll, beforeAll, describe, expect, it, inject } from "vitest";
import type { Config } from "../config.ts";
import {
  admin,
  alice,
  artist,
  bob,
  carol,
  configFor,
  createScratchDatabase,
  dumpTables,
  indexerOptions,
  indexToHead,
  runFullFlow,
  startTestChain,
  type TestChain,
} from "./testing.ts";

let t: TestChain;
let flow: Awaited<ReturnType<typeof runFullFlow>>;
const lower = (a: string) => a.toLowerCase();

beforeAll(async () => {
  t = await startTestChain();
  flow = await runFullFlow(t);
}, 120_000);
afterAll(() => t?.stop());

describe("indexer projections", () => {
  it("turns every event kind of full flows into the right rows", async () => {
    const scratch = await createScratchDatabase(inject("databaseUrl"));
    try {
      const config: Config = configFor(t, scratch.url);
      await indexToHead({ ...indexerOptions(scratch.db, config, t.publicClient), blockRange: 7n });
      const q = async (text: string, params: unknown[] = []) => (await scratch.db.$client.query(text, params)).rows;
      const art = lower(flow.art);
      const lazy = lower(flow.lazy);

      const collections = await q("SELECT * FROM chain_collections ORDER BY created_block");
      expect(collections.map((c) => [c.kind, c.name, c.owner])).toEqual([
        ["default", "Easel", lower(admin.address)],
        ["standard", "Sunsets", lower(artist.address)],
        ["lazy", "Dawn", lower(artist.address)],
      ]);
      const sun = collections[1];
      expect(sun).toMatchObject({
        floor_price: parseEther("2.5").toString(),
        highest_sale: parseEther("1.2").toString(),
        volume: (parseEther("1") + parseEther("1.2") + parseEther("0.5") + parseEther("0.2")).toString(),
        sales_count: 4,
        tokens_count: 4,
      });
      // Owners: bob (token 1, 2), carol (3), artist (4).
      expect(sun?.owners_count).toBe(3);
      expect(collections[2]).toMatchObject({ blocked: true, max_supply: "10", sales_count: 1 });

      const tokens = await q("SELECT * FROM chain_tokens ORDER BY collection, token_id");
      const token = (c: string, id: string) => tokens.find((r) => r.collection === c && r.token_id === id);
      expect(token(art, "1")).toMatchObject({
        owner: lower(bob.address),
        status: "minted",
        last_price: parseEther("0.2").toString(),
        creator: lower(artist.address),
        royalty_bps: 1000,
      });
      expect(token(art, "1")?.cid).toMatch(/^bafkrei/);
      expect(token(art, "2")).toMatchObject({ owner: lower(bob.address), holder: lower(bob.address), status: "minted" });
      expect(token(art, "3")).toMatchObject({ owner: lower(carol.address), blocked: true });
      expect(token(art, "4")).toMatchObject({ status: "fix", price: parseEther("2.5").toString() });
      expect(token(lazy, "7")).toMatchObject({ status: "lazy-sold", lazy: true, owner: lower(alice.address) });
      expect(token(lower(t.defaultCollection), "100")).toMatchObject({ status: "burned" });

      const auctions = await q("SELECT * FROM chain_auctions ORDER BY created_block");
      expect(auctions).toHaveLength(2);
      expect(auctions[0]).toMatchObject({
        kind: "standard",
        status: "completed",
        winner: lower(bob.address),
        top_bid: parseEther("1.2").toString(),
        bids_count: 2,
        extended: true,
      });
      expect(auctions[1]).toMatchObject({ kind: "reserve", status: "completed", winner: lower(carol.address) });
      expect(auctions[1]?.start_time).not.toBeNull();

      const bids = await q("SELECT * FROM chain_bids ORDER BY block_number");
      expect(bids.map((b) => [b.bidder, b.previous_bidder])).toEqual([
        [lower(alice.address), null],
        [lower(bob.address), lower(alice.address)],
        [lower(carol.address), null],
      ]);

      const sales = await q("SELECT * FROM chain_sales ORDER BY block_number");
      expect(sales.map((s) => [s.mechanism, s.primary, s.price])).toEqual([
        ["buy-now", true, parseEther("1").toString()],
        ["auction", true, parseEther("1.2").toString()],
        ["auction", true, parseEther("0.5").toString()],
        ["offer", false, parseEther("0.2").toString()],
        ["lazy-mint", true, parseEther("0.3").toString()],
      ]);
      expect(sales[3]?.royalty).toBe(parseEther("0.02").toString());

      const offers = await q("SELECT token_id, buyer, status, amount FROM chain_offers ORDER BY token_id, buyer");
      expect(offers).toEqual(
        expect.arrayContaining([
          { token_id: "1", buyer: lower(bob.address), status: "outbid", amount: parseEther("0.1").toString() },
          { token_id: "1", buyer: lower(carol.address), status: "accepted", amount: parseEther("0.2").toString() },
          { token_id: "4", buyer: lower(bob.address), status: "cancelled", amount: parseEther("0.1").toString() },
        ]),
      );
      const orders = await q("SELECT token_id, status, price FROM chain_sell_orders ORDER BY token_id");
      expect(orders).toEqual([
        { token_id: "1", status: "void", price: parseEther("2").toString() },
        { token_id: "4", status: "active", price: parseEther("2.5").toString() },
      ]);

      const accounts = await q("SELECT address, banned, verified_artist FROM chain_accounts ORDER BY address");
      expect(accounts).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ address: lower(bob.address), banned: true }),
          expect.objectContaining({ address: lower(artist.address), verified_artist: true }),
        ]),
      );
      expect(await q("SELECT collection, token_id FROM chain_blocked_tokens")).toEqual([
        { collection: art, token_id: "3" },
      ]);
      expect(await q("SELECT collection FROM chain_blocked_collections")).toEqual([{ collection: lazy }]);

      const kinds = (await q("SELECT DISTINCT kind FROM chain_activity ORDER BY kind")).map((r) => r.kind);
      expect(kinds).toEqual([
        "auction",
        "bid",
        "burn",
        "list",
        "mint",
        "offer",
        "offer_accepted",
        "offer_cancelled",
        "outbid",
        "sale",
        "transfer",
        "unlist",
      ]);
      // The transfer inside a sale is shown as the sale only: one transfer activity (carol -> bob).
      expect(await q("SELECT \"from\", \"to\" FROM chain_activity WHERE kind = 'transfer'")).toEqual([
        { from: lower(carol.address), to: lower(bob.address) },
      ]);

      const notes = await q("SELECT address, kind FROM notifications WHERE source_key IS NOT NULL");
      const has = (address: string, kind: string) =>
        notes.some((n) => n.address === lower(address) && n.kind === kind);
      expect(has(artist.address, "sale")).toBe(true); // seller on a sale
      expect(has(alice.address, "outbid")).toBe(true); // previous bidder on an outbid
      expect(has(alice.address, "offer")).toBe(true); // owner on a new offer
      expect(has(carol.address, "offer_accepted")).toBe(true); // offerer on acceptance
      expect(has(bob.address, "auction_won")).toBe(true);
      expect(has(bob.address, "offer_outbid")).toBe(true);

      // Applying again changes nothing.
      const before = await dumpTables(scratch.db);
      await indexToHead({ ...indexerOptions(scratch.db, config, t.publicClient), blockRange: 3n });
      expect(await dumpTables(scratch.db)).toEqual(before);
    } finally {
      await scratch.drop();
    }
  });
});

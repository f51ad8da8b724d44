import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { shortAddress } from "@easel/common";
import { easelCollectionAbi, easelFactoryAbi, easelMarketAbi } from "@easel/contracts";
import { type Address, custom, decodeEventLog, HttpRequestError, http, parseEther, type RpcLog } from "viem";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { buildApp } from "../app.ts";
import type { Config } from "../config.ts";
import { PROJECTION_TABLES } from "./batch.ts";
import { decodeLogs, normalize } from "./decode.ts";
import { cidString } from "./handlers/shared.ts";
import { startIndexer } from "./indexer.ts";
import { SETTINGS_EVENTS, ZERO } from "./keys.ts";
import { REPLAY_CHUNK, replay, resetChainData } from "./reorg.ts";
import {
  accounts,
  admin,
  alice,
  artist,
  bob,
  carol,
  cidBytes,
  configFor,
  createScratchDatabase,
  driver,
  dumpTables,
  indexerOptions,
  indexToHead,
  publicClientFor,
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
      // Preferences: the artist wants email at a confirmed address; carol wants email too but never
      // confirmed hers (it may be a stranger's); bob turned bid activity off.
      await scratch.db.$client.query(
        `INSERT INTO profiles (address, email, email_verified_at, notif_allow) VALUES
         ($1, 'artist@example.com', now(), '{"email": true}'),
         ($2, NULL, NULL, '{"bidActivity": false}'),
         ($3, 'carol@example.com', NULL, '{"email": true}')`,
        [artist.address.toLowerCase(), bob.address.toLowerCase(), carol.address.toLowerCase()],
      );
      await scratch.db.$client.query("INSERT INTO follows (follower, followee) VALUES ($1, $2)", [
        carol.address.toLowerCase(),
        artist.address.toLowerCase(),
      ]);
      await indexToHead({ ...indexerOptions(scratch.db, config, t.publicClient), blockRange: 7n });
      const q = async (text: string, params: unknown[] = []) =>
        (await scratch.db.$client.query(text, params)).rows;
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
      expect(token(art, "2")).toMatchObject({
        owner: lower(bob.address),
        holder: lower(bob.address),
        status: "minted",
      });
      expect(token(art, "3")).toMatchObject({ owner: lower(carol.address), blocked: true });
      expect(token(art, "4")).toMatchObject({ status: "fix", price: parseEther("2.5").toString() });
      expect(token(lazy, "7")).toMatchObject({
        status: "lazy-sold",
        lazy: true,
        owner: lower(alice.address),
      });
      expect(token(lazy, "7")?.collaborators).toEqual([{ account: lower(artist.address), share: 100 }]);
      expect(token(lower(t.defaultCollection), "1")).toMatchObject({ status: "burned" });

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
      expect(auctions[1]).toMatchObject({
        kind: "reserve",
        status: "completed",
        winner: lower(carol.address),
      });
      expect(auctions[1]?.start_time).not.toBeNull();

      const bids = await q("SELECT * FROM chain_bids ORDER BY block_number");
      // The bid each one replaced (and refunded) is read from the auction the indexer holds.
      expect(bids.map((b) => [b.bidder, b.previous_bidder, b.previous_amount])).toEqual([
        [lower(alice.address), null, null],
        [lower(bob.address), lower(alice.address), parseEther("1").toString()],
        [lower(carol.address), null, null],
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

      const offers = await q(
        "SELECT token_id, buyer, status, amount FROM chain_offers ORDER BY token_id, buyer",
      );
      expect(offers).toEqual(
        expect.arrayContaining([
          {
            token_id: "1",
            buyer: lower(bob.address),
            status: "outbid",
            amount: parseEther("0.1").toString(),
          },
          {
            token_id: "1",
            buyer: lower(carol.address),
            status: "accepted",
            amount: parseEther("0.2").toString(),
          },
          {
            token_id: "4",
            buyer: lower(bob.address),
            status: "cancelled",
            amount: parseEther("0.1").toString(),
          },
        ]),
      );
      const orders = await q("SELECT token_id, status, price FROM chain_sell_orders ORDER BY token_id");
      expect(orders).toEqual([
        { token_id: "1", status: "void", price: parseEther("2").toString() },
        { token_id: "4", status: "active", price: parseEther("2.5").toString() },
      ]);

      const accounts = await q(
        "SELECT address, banned, verified_artist FROM chain_accounts ORDER BY address",
      );
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
      expect(await q('SELECT "from", "to" FROM chain_activity WHERE kind = \'transfer\'')).toEqual([
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
      expect(has(bob.address, "offer_outbid")).toBe(false); // bob switched bid activity off
      // Followers hear of their creators' listings (the artist listed three times; carol's own listing is not).
      expect(notes.filter((n) => n.address === lower(carol.address) && n.kind === "listing")).toHaveLength(3);
      const mail = await q(`SELECT "to", text FROM mail_outbox`);
      const artistNotes = notes.filter((n) => n.address === lower(artist.address)).length;
      expect(mail.length).toBe(artistNotes);
      // Carol's notifications above were written, but none was mailed to her unconfirmed address.
      expect(mail.every((m) => m.to === "artist@example.com")).toBe(true);
      expect(mail.some((m) => String(m.text).includes("sold for 1 ETH"))).toBe(true);

      // Applying the same ranges again changes nothing (and sends no mail twice).
      const before = await dumpTables(scratch.db);
      await scratch.db.$client.query("UPDATE indexer_state SET indexed_block = $1", [
        config.deployBlock.toString(),
      ]);
      await indexToHead({ ...indexerOptions(scratch.db, config, t.publicClient), blockRange: 3n });
      expect(await dumpTables(scratch.db)).toEqual(before);
      expect((await q("SELECT count(*)::int AS n FROM mail_outbox"))[0]?.n).toBe(mail.length);

      // A confirmation depth keeps the indexer that many blocks behind the head.
      const behind = await createScratchDatabase(inject("databaseUrl"));
      try {
        const deep = { ...configFor(t, behind.url), indexerConfirmations: 3 };
        await indexToHead(indexerOptions(behind.db, deep, t.publicClient));
        const head = await t.publicClient.getBlockNumber({ cacheTime: 0 });
        const { rows } = await behind.db.$client.query("SELECT indexed_block, head_block FROM indexer_state");
        expect(rows).toEqual([{ indexed_block: String(head - 3n), head_block: String(head) }]);
      } finally {
        await behind.drop();
      }
    } finally {
      await scratch.drop();
    }
  });
});

describe("notifications", () => {
  it("name the artwork by its metadata, or by its collection and number when the metadata is unknown", async () => {
    const scratch = await createScratchDatabase(inject("databaseUrl"));
    try {
      // Easel's metadata for Sunsets #1 and #2 (uploaded before their mint, keyed by the CID they carry);
      // none for #3, nor for the lazy collection's item.
      await scratch.db.$client.query(
        `INSERT INTO item_metadata (cid, creator, collection, name, description, royalty, media_cid)
         VALUES ($1, $3, $4, 'Dusk over the pier', '', 10, 'bafkreimedia1'),
                ($2, $3, $4, 'Tide <b>&</b> "foam"', '', 10, 'bafkreimedia2')`,
        [cidString(cidBytes(1)), cidString(cidBytes(2)), lower(artist.address), lower(flow.art)],
      );
      await scratch.db.$client.query(
        `INSERT INTO profiles (address, name, email, email_verified_at, notif_allow) VALUES ($1, 'Ada Artist', 'artist@example.com', now(), '{"email": true}')`,
        [lower(artist.address)],
      );
      // Carol has a profile with an ENS name and no display name: texts name her by it. She follows the
      // artist, whose listings she hears of by the artist's display name.
      await scratch.db.$client.query(`INSERT INTO profiles (address, ens) VALUES ($1, 'carol.eth')`, [
        lower(carol.address),
      ]);
      await scratch.db.$client.query("INSERT INTO follows (follower, followee) VALUES ($1, $2)", [
        lower(carol.address),
        lower(artist.address),
      ]);
      await indexToHead(indexerOptions(scratch.db, configFor(t, scratch.url), t.publicClient));
      const { rows: notes } = await scratch.db.$client.query<{
        address: string;
        kind: string;
        message: string;
      }>("SELECT address, kind, message FROM notifications WHERE source_key IS NOT NULL");
      const said = (who: { address: string }, kind: string) =>
        notes.filter((n) => n.address === lower(who.address) && n.kind === kind).map((n) => n.message);
      expect(said(artist, "sale")).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^Your “Dusk over the pier” sold for 1 ETH; you receive /),
          expect.stringMatching(/^Your “Tide <b>&<\/b> "foam"” sold for 1\.2 ETH; /),
          expect.stringMatching(/^Your “Sunsets #3” sold for 0\.5 ETH; /),
          "Your “Dawn #7” was bought for 0.3 ETH.",
        ]),
      );
      // The person a text names reads as profiles show them: bob has no profile, so his short address.
      expect(said(alice, "outbid")).toEqual([
        `You were outbid on “Tide <b>&</b> "foam"” by ${shortAddress(lower(bob.address))}: the top bid is now 1.2 ETH; 1 ETH was refunded.`,
      ]);
      expect(said(bob, "auction_won")).toEqual([
        'You won the auction of “Tide <b>&</b> "foam"” for 1.2 ETH.',
      ]);
      expect(said(carol, "auction_won")).toEqual(["You won the auction of “Sunsets #3” for 0.5 ETH."]);
      expect(said(alice, "purchase")).toEqual(
        expect.arrayContaining([
          "You bought “Dusk over the pier” for 1 ETH.",
          "You bought “Dawn #7” for 0.3 ETH.",
        ]),
      );
      expect(said(alice, "offer")).toEqual([
        "New offer of 0.1 ETH on your “Dusk over the pier”.",
        "New offer of 0.2 ETH on your “Dusk over the pier”.",
      ]);
      expect(said(bob, "transfer")).toEqual(["You received “Dusk over the pier” from carol.eth."]);
      expect(said(carol, "listing")).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^Ada Artist listed “Dusk over the pier” for 1 ETH\.$/),
        ]),
      );
      expect(notes.filter((n) => n.message.includes("NFT #"))).toEqual([]);
      // The mail carries the same text.
      const { rows: mail } = await scratch.db.$client.query(`SELECT text FROM mail_outbox`);
      expect(mail.some((m) => String(m.text).startsWith("Your “Dusk over the pier” sold for 1 ETH"))).toBe(
        true,
      );
    } finally {
      await scratch.drop();
    }
  });
});

describe("the token row's copy of its market state", () => {
  it("equals the active listing, auction and offer after every block of the full flows", async () => {
    const scratch = await createScratchDatabase(inject("databaseUrl"));
    try {
      const drift: unknown[] = [];
      const states = new Set<string>();
      let batches = 0;
      await indexToHead({
        ...indexerOptions(scratch.db, configFor(t, scratch.url), t.publicClient),
        blockRange: 1n,
        applyLogs: async (tx) => {
          batches++;
          const { rows } = await tx.$client.query(
            `SELECT t.collection, t.token_id, t.listing_expires_at, t.auction_kind, t.auction_end, t.offer,
               so.expires_at, au.kind, au.end_time, o.amount
             FROM chain_tokens t
             LEFT JOIN chain_sell_orders so
               ON so.collection = t.collection AND so.token_id = t.token_id AND so.status = 'active'
             LEFT JOIN chain_auctions au
               ON au.collection = t.collection AND au.token_id = t.token_id AND au.status = 'active'
             LEFT JOIN chain_offers o
               ON o.collection = t.collection AND o.token_id = t.token_id AND o.status = 'active'
             WHERE (t.listing_expires_at, t.auction_kind, t.auction_end, t.offer)
               IS DISTINCT FROM (so.expires_at, au.kind, au.end_time, o.amount)`,
          );
          drift.push(...rows);
          const { rows: seen } = await tx.$client.query(
            `SELECT DISTINCT CASE
               WHEN listing_expires_at IS NOT NULL THEN 'listed'
               WHEN auction_kind = 'reserve' AND auction_end IS NULL THEN 'reserve auction waiting for a bid'
               WHEN auction_kind IS NOT NULL THEN auction_kind || ' auction running'
             END AS state FROM chain_tokens
             UNION SELECT 'offer' FROM chain_tokens WHERE offer IS NOT NULL`,
          );
          for (const r of seen) if (r.state) states.add(r.state);
        },
      });
      // The flows list, auction (both kinds), bid, offer, outbid, cancel, accept, sell and transfer: each of
      // them changed a copy, and every copy still matched its rows after each block.
      expect(batches).toBeGreaterThan(40);
      expect(drift).toEqual([]);
      expect([...states].sort()).toEqual([
        "listed",
        "offer",
        "reserve auction running",
        "reserve auction waiting for a bid",
        "standard auction running",
      ]);
      // At the end: token 4's listing, and nothing else on sale or offered.
      const { rows } = await scratch.db.$client.query(
        `SELECT token_id, listing_expires_at IS NOT NULL AS listed, auction_kind, offer FROM chain_tokens
         WHERE collection = $1 ORDER BY token_id`,
        [lower(flow.art)],
      );
      expect(rows.map((r) => [r.token_id, r.listed, r.auction_kind, r.offer])).toEqual([
        ["1", false, null, null],
        ["2", false, null, null],
        ["3", false, null, null],
        ["4", true, null, null],
      ]);
    } finally {
      await scratch.drop();
    }
  });
});

async function freshDump(): Promise<Record<string, unknown[]>> {
  const fresh = await createScratchDatabase(inject("databaseUrl"));
  try {
    await indexToHead(indexerOptions(fresh.db, configFor(t, fresh.url), t.publicClient));
    return await dumpTables(fresh.db);
  } finally {
    await fresh.drop();
  }
}

async function waitFor(condition: () => Promise<boolean>, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await condition()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("condition not met in time");
}

describe("decoding", () => {
  it("decodes every event of the full flows exactly as viem's ABI decoder does", async () => {
    // As the indexer reads them: the RPC's own form, numbers in hex.
    const logs = (await t.publicClient.request({
      method: "eth_getLogs",
      params: [{ fromBlock: "0x0", toBlock: "latest" }],
    })) as RpcLog[];
    const times = new Map<bigint, Date>();
    for (const n of new Set(logs.map((l) => BigInt(l.blockNumber as string)))) times.set(n, new Date(0));
    const events = decodeLogs(logs, times);
    const abi = [...easelMarketAbi, ...easelFactoryAbi, ...easelCollectionAbi];
    const names = new Set<string>();
    for (const e of events) {
      const log = logs.find(
        (l) => BigInt(l.blockNumber as string) === e.blockNumber && Number(l.logIndex) === e.logIndex,
      ) as RpcLog;
      const reference = decodeEventLog({ abi, data: log.data, topics: log.topics, strict: true });
      expect(e.name).toBe(reference.eventName);
      expect(e.args).toEqual(normalize(reference.args));
      names.add(e.name);
    }
    // The flows cover the fast path (one-word values) and the general one (strings, arrays, tuples).
    expect(names.size).toBeGreaterThan(15);
    expect(names.has("Minted") && names.has("Sale") && names.has("CollectionCreated")).toBe(true);
  });
});

describe("indexer robustness", () => {
  it("a reorg of depth 1 and of depth 3 ends identical to a fresh index of the final chain", async () => {
    const scratch = await createScratchDatabase(inject("databaseUrl"));
    const lines: string[] = [];
    const options = {
      ...indexerOptions(scratch.db, configFor(t, scratch.url), t.publicClient),
      log: (line: string) => void lines.push(line),
    };
    const d = driver(t);
    const art = flow.art;
    const notes = async () =>
      (await scratch.db.$client.query("SELECT kind, address FROM notifications WHERE source_key IS NOT NULL"))
        .rows;
    try {
      await indexToHead(options);
      let carolOffer = 0n;
      for (const [depth, replacement] of [
        [1, 1],
        [3, 4],
      ] as const) {
        const artistOffers = async () =>
          (await notes()).filter((n) => n.kind === "offer" && n.address === artist.address.toLowerCase())
            .length;
        const base = await artistOffers();
        const snapshot = await t.test.snapshot();
        // The branch that will be dropped: offers from alice (the owner, artist, is notified of each).
        // Alice raises her own offer: each call states the new total and sends the 0.1 difference.
        for (let i = 0; i < depth; i++) {
          const step = parseEther("0.1");
          await d.market(alice, "makeOffer", [art, 4n, step * BigInt(i + 1), await d.offerExpiry()], step);
        }
        await indexToHead(options);
        expect(await artistOffers()).toBe(base + depth);
        await t.test.revert({ id: snapshot });
        // The canonical branch: different transactions (carol offers on token 2), another length.
        // Carol raises her own offer by 0.01 each time (she sends the difference); her offers are on the
        // canonical chain, so they carry over to the next round.
        for (let i = 0; i < replacement; i++) {
          const total = carolOffer === 0n ? parseEther("0.1") : carolOffer + parseEther("0.01");
          await d.market(carol, "makeOffer", [art, 2n, total, await d.offerExpiry()], total - carolOffer);
          carolOffer = total;
        }
        await indexToHead(options);
        expect(lines.filter((l) => l.includes("reorg")).length).toBe(depth === 1 ? 1 : 2);
        // Only the dropped blocks' batches were undone; nothing was rebuilt from the whole history.
        expect(lines.filter((l) => l.includes("rebuilding"))).toEqual([]);
        // The dropped branch's notifications went with it.
        expect(await artistOffers()).toBe(base);
      }
      expect(await dumpTables(scratch.db)).toEqual(await freshDump());
    } finally {
      await scratch.drop();
    }
  });

  it("undoes a reorg inside a multi-block batch, and rebuilds when the batch kept no undo records", async () => {
    const d = driver(t);
    const art = flow.art;
    for (const withUndo of [true, false]) {
      const scratch = await createScratchDatabase(inject("databaseUrl"));
      const lines: string[] = [];
      const options = {
        ...indexerOptions(scratch.db, configFor(t, scratch.url), t.publicClient),
        log: (line: string) => void lines.push(line),
      };
      try {
        await indexToHead(options);
        const next = async () =>
          BigInt(
            (
              await scratch.db.$client.query(
                "SELECT coalesce(max(token_id), 0) + 1 AS id FROM chain_tokens WHERE collection = $1",
                [lower(art)],
              )
            ).rows[0]?.id,
          );
        // One batch of three blocks: a mint that stays, then a listing and a mint that the reorg drops.
        const kept = await next();
        const keptReceipt = await d.mint(artist, art, kept);
        const snapshot = await t.test.snapshot();
        await d.market(artist, "setSellOrder", [art, kept, parseEther("2")]);
        await d.mint(artist, art, kept + 1n);
        await indexToHead(options);
        await t.test.revert({ id: snapshot });
        // The canonical branch mints the same id with another royalty and lists nothing.
        await d.mint(artist, art, kept + 1n, 500);
        if (!withUndo) await scratch.db.$client.query("DELETE FROM chain_batches");
        await indexToHead(options);
        const reorg = lines.find((l) => l.includes("reorg")) ?? "";
        expect(reorg).toContain(`rolling back to ${keptReceipt.blockNumber}`);
        expect(reorg).toContain(withUndo ? "undoing batches" : "rebuilding from every stored event");
        expect(await dumpTables(scratch.db)).toEqual(await freshDump());
      } finally {
        await scratch.drop();
      }
    }
  });

  it("undoes a dropped branch's settings and changes to rows it found, each equal to a fresh index", async () => {
    // Every market setting (none is set at deployment) set on a branch that a reorg drops: first where the
    // setting has no value yet, then where an earlier block set it. The second branch also changes rows that
    // existed before it (offers cancelled, outbid and accepted, a listing cancelled, a bid raised, a ban,
    // a verification and blocks lifted), so each undo must restore the row it found, not delete it.
    const d = driver(t);
    const dave = accounts[8] as typeof admin;
    const outer = await t.test.snapshot();
    const scratch = await createScratchDatabase(inject("databaseUrl"));
    const lines: string[] = [];
    const options = {
      ...indexerOptions(scratch.db, configFor(t, scratch.url), t.publicClient),
      log: (line: string) => void lines.push(line),
    };
    const milli = (n: number) => parseEther("0.001") * BigInt(n);
    const settings = async (v: number, locked: boolean) => {
      await d.market(admin, "setFees", [500 + v, 100 + v]);
      await d.market(admin, "setMinimums", [
        milli(v),
        milli(v + 1),
        milli(v + 2),
        milli(v + 3),
        milli(v + 4),
      ]);
      await d.market(admin, "setMinAuctionDuration", [600 + v]);
      await d.market(admin, "setSigner", [accounts[6 + (v % 2)]?.address]);
      await d.market(admin, "setEntranceLocked", [locked]);
      await d.market(admin, "setMarketLocked", [locked]);
    };
    const settingNames = async () =>
      (await scratch.db.$client.query("SELECT name FROM chain_settings ORDER BY name")).rows.map(
        (r) => r.name,
      );
    // Drops the blocks since `snapshot`, then grows the canonical branch (`canonical`) at least as long.
    const reorg = async (snapshot: `0x${string}`, canonical: () => Promise<unknown>) => {
      const dropped = await t.publicClient.getBlockNumber({ cacheTime: 0 });
      await t.test.revert({ id: snapshot });
      await canonical();
      const head = await t.publicClient.getBlockNumber({ cacheTime: 0 });
      if (head < dropped) await t.test.mine({ blocks: Number(dropped - head) });
      await indexToHead(options);
    };
    // The market's settings events are those the indexer keeps (a new one added to the contracts shows here).
    const marketEvents = easelMarketAbi.filter((x) => x.type === "event").map((x) => x.name);
    expect(marketEvents.filter((n) => n.endsWith("Set") && n !== "SellOrderSet").sort()).toEqual(
      [...SETTINGS_EVENTS].sort(),
    );
    try {
      await indexToHead(options);
      expect(await settingNames()).toEqual([]);

      // 1. The settings' first values, on a branch that is dropped.
      let snapshot = await t.test.snapshot();
      await settings(3, true);
      await indexToHead(options);
      expect(await settingNames()).toEqual([...SETTINGS_EVENTS].sort());
      let art = ZERO as Address;
      let other = ZERO as Address;
      await reorg(snapshot, async () => {
        // The canonical branch sets every setting (unlocked), and the rows the next branch will change.
        await settings(1, false);
        art = await d.createCollection(artist, "Reorged", "REO");
        other = await d.createCollection(artist, "Reorged too", "RE2");
        for (const id of [1n, 2n, 3n, 4n, 5n, 6n]) await d.mint(artist, art, id);
        await d.approve(artist, art);
        await d.market(
          alice,
          "makeOffer",
          [art, 1n, parseEther("0.1"), await d.offerExpiry()],
          parseEther("0.1"),
        );
        await d.market(
          dave,
          "makeOffer",
          [art, 2n, parseEther("0.1"), await d.offerExpiry()],
          parseEther("0.1"),
        );
        await d.market(
          carol,
          "makeOffer",
          [art, 3n, parseEther("0.1"), await d.offerExpiry()],
          parseEther("0.1"),
        );
        await d.market(artist, "setSellOrder", [art, 4n, parseEther("1")]);
        await d.market(artist, "setStandardAuction", [art, 5n, parseEther("0.5"), 0n, 3_600n]);
        await d.market(alice, "placeBid", [art, 5n, parseEther("0.5")], parseEther("0.5"));
        await d.market(admin, "setBanned", [accounts[5]?.address, true]);
        await d.market(admin, "setArtistVerified", [accounts[5]?.address, true]);
        await d.market(admin, "setTokenBlocked", [art, 6n, true]);
        await d.market(admin, "setCollectionBlocked", [other, true]);
      });
      expect(lines.filter((l) => l.includes("undoing batches"))).toHaveLength(1);
      expect(await dumpTables(scratch.db)).toEqual(await freshDump());
      expect(await settingNames()).toEqual([...SETTINGS_EVENTS].sort());

      // 2. New values of every setting, and changes to rows that existed, on a branch that is dropped.
      snapshot = await t.test.snapshot();
      await d.market(alice, "cancelOffer", [art, 1n]);
      await d.market(
        carol,
        "makeOffer",
        [art, 2n, parseEther("0.2"), await d.offerExpiry()],
        parseEther("0.2"),
      );
      await d.market(artist, "acceptOffer", [art, 3n, parseEther("0.1")]);
      await d.market(artist, "cancelSellOrder", [art, 4n]);
      await d.market(carol, "placeBid", [art, 5n, parseEther("0.6")], parseEther("0.6"));
      await d.market(admin, "setBanned", [accounts[5]?.address, false]);
      await d.market(admin, "setArtistVerified", [accounts[5]?.address, false]);
      await d.market(admin, "setTokenBlocked", [art, 6n, false]);
      await d.market(admin, "setCollectionBlocked", [other, false]);
      await settings(2, true);
      await indexToHead(options);
      await reorg(snapshot, () => d.mint(artist, art, 7n));
      expect(lines.filter((l) => l.includes("undoing batches"))).toHaveLength(2);
      expect(lines.filter((l) => l.includes("rebuilding"))).toEqual([]);
      expect(await dumpTables(scratch.db)).toEqual(await freshDump());
      const { rows } = await scratch.db.$client.query("SELECT name, args FROM chain_settings ORDER BY name");
      expect(rows).toContainEqual({
        name: "FeesSet",
        args: { primaryFeeBps: "501", secondaryFeeBps: "101" },
      });
      expect(rows).toContainEqual({ name: "MarketLockSet", args: { locked: false } });
    } finally {
      await scratch.drop();
      await t.test.revert({ id: outer });
    }
  });

  it("stops with how to resync when a reorg goes deeper than the kept block hashes", async () => {
    const scratch = await createScratchDatabase(inject("databaseUrl"));
    const snapshot = await t.test.snapshot();
    const lines: string[] = [];
    const options = {
      ...indexerOptions(scratch.db, configFor(t, scratch.url), t.publicClient),
      log: (line: string) => void lines.push(line),
      pollIntervalMs: 20,
    };
    try {
      await t.test.mine({ blocks: 1_100 });
      await indexToHead(options);
      await t.test.revert({ id: snapshot });
      // Another history of 1,200 blocks: every block after the snapshot differs (another timestamp).
      await t.test.increaseTime({ seconds: 7 });
      await t.test.mine({ blocks: 1_200 });
      const before = await dumpTables(scratch.db);
      const indexer = startIndexer(options);
      await waitFor(async () => indexer.halted() !== null);
      await indexer.stop();
      expect(indexer.halted()?.message).toContain("deeper than the 1000 blocks whose hashes are kept");
      expect(lines.some((l) => l.includes("npm run indexer:resync"))).toBe(true);
      // Nothing was changed on a guess.
      expect(await dumpTables(scratch.db)).toEqual(before);

      // The documented resync empties the chain tables; indexing again gives a fresh index.
      await resetChainData(scratch.db.$client);
      await indexToHead(options);
      expect(await dumpTables(scratch.db)).toEqual(await freshDump());
    } finally {
      await t.test.revert({ id: snapshot });
      await scratch.drop();
    }
  });

  it("replays a sale's Transfer and Sale in one chunk when a chunk boundary falls between them", async () => {
    const scratch = await createScratchDatabase(inject("databaseUrl"));
    const options = indexerOptions(scratch.db, configFor(t, scratch.url), t.publicClient);
    const client = await scratch.db.$client.connect();
    try {
      await indexToHead(options);
      const q = async (text: string, params: unknown[] = []) => (await client.query(text, params)).rows;
      // The first buy-now: its Transfer comes right before its Sale, in one transaction.
      const [sale] = await q(
        "SELECT block_number, log_index, tx_hash FROM chain_events WHERE name = 'Sale' ORDER BY block_number, log_index LIMIT 1",
      );
      const [transfer] = await q(
        "SELECT block_number, log_index FROM chain_events WHERE tx_hash = $1 AND name = 'Transfer'",
        [sale?.tx_hash],
      );
      const [{ n: before } = { n: 0 }] = await q(
        "SELECT count(*)::int AS n FROM chain_events WHERE (block_number, log_index) < ($1::bigint, $2::int)",
        [transfer?.block_number, transfer?.log_index],
      );
      // Events no handler reads, stored in block 0, put the Transfer at #20,000 and the Sale at #20,001.
      const fillers = REPLAY_CHUNK - 1 - before;
      await q(
        `INSERT INTO chain_events (block_number, log_index, block_hash, tx_hash, address, name, args, block_time)
         SELECT 0, i, '0x00', '0x00', '0x0000000000000000000000000000000000000000', 'Filler', '{}', now()
         FROM generate_series(0, $1::int - 1) AS i`,
        [fillers],
      );
      const order = await q(
        "SELECT name FROM chain_events ORDER BY block_number, log_index OFFSET $1 LIMIT 2",
        [REPLAY_CHUNK - 1],
      );
      expect(order.map((r) => r.name)).toEqual(["Transfer", "Sale"]);
      const indexed = await dumpTables(scratch.db);

      await client.query(`TRUNCATE ${PROJECTION_TABLES.join(", ")}`);
      await replay(options, client);
      // A fresh rebuild equals normal indexing: no extra 'transfer' activity for the sale.
      expect(await dumpTables(scratch.db)).toEqual(indexed);
    } finally {
      client.release();
      await scratch.drop();
    }
  });

  it("killed at random points during a backfill, then restarted, ends identical to an uninterrupted run", async () => {
    const reference = await freshDump();
    const scratch = await createScratchDatabase(inject("databaseUrl"));
    const child = fileURLToPath(new URL("./testing-child.ts", import.meta.url));
    const indexed = async () =>
      Number(
        (await scratch.db.$client.query("SELECT indexed_block FROM indexer_state")).rows[0]?.indexed_block ??
          -1,
      );
    try {
      const progress: number[] = [];
      for (let run = 0; run < 3; run++) {
        const killAfter = 1 + Math.floor(Math.random() * 8);
        const proc = spawn(process.execPath, ["--import", "tsx", child], {
          env: { ...process.env, ...t.env(scratch.url), INDEXER_TEST_BLOCK_RANGE: "2" },
          stdio: ["ignore", "pipe", "inherit"],
        });
        await new Promise<void>((resolve) => {
          let commits = 0;
          proc.stdout?.on("data", (chunk: Buffer) => {
            commits += chunk
              .toString()
              .split("\n")
              .filter((l) => l.startsWith("commit")).length;
            if (commits >= killAfter) proc.kill("SIGKILL");
          });
          proc.once("exit", () => resolve());
        });
        progress.push(await indexed());
      }
      // Every run made progress from where the previous one was killed.
      expect(progress[0]).toBeGreaterThan(0);
      expect(new Set(progress).size).toBeGreaterThan(1);
      await indexToHead(indexerOptions(scratch.db, configFor(t, scratch.url), t.publicClient));
      expect(await dumpTables(scratch.db)).toEqual(reference);
    } finally {
      await scratch.drop();
    }
  }, 60_000);

  it("converges with an RPC that fails every third call, and rolls back batches when faults outlast retries", async () => {
    const reference = await freshDump();
    const scratch = await createScratchDatabase(inject("databaseUrl"));
    const inner = http(t.url, { retryCount: 0 })({ chain: t.chain });
    let calls = 0;
    let failures = 0;
    const flaky = custom(
      {
        async request({ method, params }) {
          // Every third call fails (the transport retries it); now and then a burst of failures outlasts
          // the transport's retries, so the whole batch fails and the loop retries it with backoff.
          calls++;
          if (calls % 3 === 0 || (calls > 20 && calls < 30)) {
            failures++;
            throw new HttpRequestError({ url: t.url, status: 503, details: "injected fault" });
          }
          return inner.request({ method, params });
        },
      },
      { retryCount: 2, retryDelay: 5 },
    );
    const config = configFor(t, scratch.url);
    const lines: string[] = [];
    let batches = 0;
    const indexer = startIndexer({
      ...indexerOptions(scratch.db, config, publicClientFor(t, flaky)),
      log: (line) => void lines.push(line),
      // A failure inside one batch's transaction, after its rows were written: all of it rolls back.
      applyLogs: async () => {
        if (++batches === 2) throw new Error("injected failure inside the batch");
      },
      pollIntervalMs: 20,
      blockRange: 5n,
    });
    try {
      const head = await t.publicClient.getBlockNumber({ cacheTime: 0 });
      await waitFor(async () => {
        const { rows } = await scratch.db.$client.query("SELECT indexed_block FROM indexer_state");
        return rows[0] !== undefined && BigInt(rows[0].indexed_block) >= head;
      });
      await indexer.stop();
      expect(failures).toBeGreaterThan(10);
      expect(lines.some((l) => l.includes("retrying"))).toBe(true);
      expect(lines.some((l) => l.includes("injected failure inside the batch"))).toBe(true);
      expect(await dumpTables(scratch.db)).toEqual(reference);
    } finally {
      await indexer.stop();
      await scratch.drop();
    }
    // Every batch near the head also reads the headers of blocks some answer had no log of (verifyLogs).
  }, 60_000);
});

describe("live updates", () => {
  it("streams each committed batch to the Server-Sent Events subscribers it concerns", async () => {
    const scratch = await createScratchDatabase(inject("databaseUrl"));
    const config = configFor(t, scratch.url);
    const app = await buildApp({ config, db: scratch.db, chain: t.publicClient }, { logger: false });
    const url = await app.listen({ host: "127.0.0.1", port: 0 });
    const indexer = startIndexer({
      ...indexerOptions(scratch.db, config, t.publicClient),
      pollIntervalMs: 20,
    });
    const abort = new AbortController();
    try {
      const art = flow.art.toLowerCase();
      const open = async (query: string) => {
        const response = await fetch(`${url}/api/events?${query}`, { signal: abort.signal });
        expect(response.headers.get("content-type")).toContain("text/event-stream");
        const reader = (response.body as ReadableStream<Uint8Array>).getReader();
        let text = "";
        const next = async (
          type: string,
          predicate: (data: Record<string, unknown>) => boolean,
        ): Promise<Record<string, unknown>> => {
          for (;;) {
            const events = text.split("\n\n");
            text = events.pop() ?? "";
            for (const raw of events) {
              const data = raw.split("\n").find((l) => l.startsWith("data: "));
              if (raw.includes(`event: ${type}`) && data) {
                const parsed = JSON.parse(data.slice(6)) as Record<string, unknown>;
                if (predicate(parsed)) return parsed;
              }
            }
            const { value, done } = await reader.read();
            if (done) throw new Error("stream ended");
            text += new TextDecoder().decode(value);
          }
        };
        // The first event names where the chain's stored events end.
        const ready = await next("ready", () => true);
        return {
          position: ready.position,
          next: (predicate: (data: Record<string, unknown>) => boolean) => next("chain", predicate),
        };
      };
      await waitFor(async () => {
        const { rows } = await scratch.db.$client.query("SELECT indexed_block FROM indexer_state");
        return (
          rows[0] !== undefined &&
          BigInt(rows[0].indexed_block) >= (await t.publicClient.getBlockNumber({ cacheTime: 0 }))
        );
      });
      const lastEvent = async () => {
        const { rows } = await scratch.db.$client.query(
          "SELECT block_number, log_index, block_hash FROM chain_events ORDER BY block_number DESC, log_index DESC LIMIT 1",
        );
        return `${rows[0].block_number}:${rows[0].log_index}:${rows[0].block_hash}`;
      };
      const before = await lastEvent();
      const byToken = await open(`token=${art}:4`);
      const byAccount = await open(`account=${carol.address}`);
      expect(byToken.position).toBe(before);
      expect(byAccount.position).toBe(before);
      const d = driver(t);
      const receipt = await d.market(
        carol,
        "makeOffer",
        [flow.art, 4n, parseEther("0.5"), await d.offerExpiry()],
        parseEther("0.5"),
      );
      const block = receipt.blockNumber;
      const covers = (n: Record<string, unknown>) =>
        BigInt(String(n.from)) <= block && block <= BigInt(String(n.to));
      const forToken = await byToken.next(
        (n) => covers(n) && Array.isArray(n.tokens) && n.tokens.includes(`${art}:4`),
      );
      expect(forToken.collections).toContain(art);
      const forAccount = await byAccount.next(
        (n) => covers(n) && Array.isArray(n.accounts) && n.accounts.includes(carol.address.toLowerCase()),
      );
      expect(forAccount.from).toBe(forToken.from);
      // The row is visible once the notice arrives.
      const { rows } = await scratch.db.$client.query(
        "SELECT status FROM chain_offers WHERE collection = $1 AND token_id = 4 AND buyer = $2",
        [art, carol.address.toLowerCase()],
      );
      expect(rows).toEqual([{ status: "active" }]);
      // The offer's batch moved the position: a stream opened now names its event, not the one before.
      const after = await lastEvent();
      expect(after).not.toBe(before);
      expect(after.startsWith(`${block}:`)).toBe(true);
      expect((await open(`token=${art}:4`)).position).toBe(after);
    } finally {
      abort.abort();
      await indexer.stop();
      await app.close();
      await scratch.drop();
    }
  });
});

/**
 * The market's newer mechanisms through the indexer, on a private anvil: item offers that expire, collection
 * (and trait) offers, and carts (`buyMany`) with a skipped purchase; a reorg that drops collection offers' events.
 */
import { shortAddress } from "@easel/common";
import { easelMarketAbi, tokenRoot } from "@easel/contracts";
import { type Address, type Hex, parseEther, parseEventLogs } from "viem";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { IndexerOptions } from "./options.ts";
import {
  admin,
  alice,
  artist,
  bob,
  carol,
  configFor,
  createScratchDatabase,
  driver,
  dumpTables,
  indexerOptions,
  indexToHead,
  startTestChain,
  type TestChain,
} from "./testing.ts";

const ZERO_ROOT = `0x${"0".repeat(64)}` as Hex;
const lower = (a: string) => a.toLowerCase();

let t: TestChain;
let d: ReturnType<typeof driver>;
let art: Address;
let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
let options: IndexerOptions;
const lines: string[] = [];

beforeAll(async () => {
  t = await startTestChain();
  d = driver(t);
  await d.market(admin, "setArtistVerified", [artist.address, true]);
  art = await d.createCollection(artist, "Tidal", "TDL");
  for (let id = 1n; id <= 9n; id++) await d.mint(artist, art, id);
  await d.approve(artist, art);
  scratch = await createScratchDatabase(inject("databaseUrl"), "market");
  options = {
    ...indexerOptions(scratch.db, configFor(t, scratch.url), t.publicClient),
    log: (line: string) => void lines.push(line),
  };
}, 120_000);

afterAll(async () => {
  await scratch?.drop();
  await t?.stop();
});

const q = async (text: string, params: unknown[] = []) => (await scratch.db.$client.query(text, params)).rows;

type CollectionOffer = {
  buyer: Address;
  collection: Address;
  tokenRoot: Hex;
  price: bigint;
  expiresAt: bigint;
};

/** Makes (or adds to) a collection offer; returns its id as the event names it. */
async function makeCollectionOffer(offer: CollectionOffer, quantity: bigint): Promise<string> {
  const who = [alice, bob, carol].find((a) => a.address === offer.buyer) as typeof alice;
  const receipt = await d.market(who, "makeCollectionOffer", [offer, quantity], offer.price * quantity);
  const [made] = parseEventLogs({
    abi: easelMarketAbi,
    logs: receipt.logs,
    eventName: "CollectionOfferMade",
  });
  return lower(String(made?.args.offerId));
}

const offerRow = async (offerId: string) =>
  (await q("SELECT * FROM chain_collection_offers WHERE offer_id = $1", [offerId]))[0];

describe("collection offers", () => {
  it("indexes an offer made twice, accepted twice and cancelled, with its sales and notices", async () => {
    const offer: CollectionOffer = {
      buyer: bob.address,
      collection: art,
      tokenRoot: ZERO_ROOT,
      price: parseEther("0.1"),
      expiresAt: await d.offerExpiry(),
    };
    const id = await makeCollectionOffer(offer, 2n);
    // The same terms again add to the same offer.
    expect(await makeCollectionOffer(offer, 1n)).toBe(id);
    await indexToHead(options);
    expect(await offerRow(id)).toMatchObject({
      collection: lower(art),
      buyer: lower(bob.address),
      token_root: null,
      price: parseEther("0.1").toString(),
      expires_at: new Date(Number(offer.expiresAt) * 1000),
      quantity: 3,
      remaining: 3,
      status: "active",
    });

    const accepted = await d.market(artist, "acceptCollectionOffer", [offer, 1n, []]);
    await d.market(artist, "acceptCollectionOffer", [offer, 2n, []]);
    await indexToHead(options);
    expect(await offerRow(id)).toMatchObject({
      quantity: 3,
      remaining: 1,
      status: "active",
      updated_tx: expect.any(String),
    });
    const sales = await q(
      "SELECT token_id::text, seller, buyer, mechanism, price::text FROM chain_sales WHERE collection = $1 ORDER BY block_number",
      [lower(art)],
    );
    expect(sales).toEqual(
      ["1", "2"].map((tokenId) => ({
        token_id: tokenId,
        seller: lower(artist.address),
        buyer: lower(bob.address),
        mechanism: "collection-offer",
        price: parseEther("0.1").toString(),
      })),
    );
    const tokens = await q(
      "SELECT token_id::text, owner, last_price::text FROM chain_tokens WHERE collection = $1 AND token_id IN (1, 2) ORDER BY token_id",
      [lower(art)],
    );
    expect(tokens).toEqual(
      ["1", "2"].map((tokenId) => ({
        token_id: tokenId,
        owner: lower(bob.address),
        last_price: parseEther("0.1").toString(),
      })),
    );
    // A sale like any other: the collection's volume and sales count, the token's activity (its transfer shown
    // as the sale).
    expect(
      (
        await q("SELECT sales_count, volume::text FROM chain_collections WHERE address = $1", [lower(art)])
      )[0],
    ).toEqual({
      sales_count: 2,
      volume: parseEther("0.2").toString(),
    });
    const activity = await q(
      `SELECT kind, "from", "to", price::text FROM chain_activity WHERE collection = $1 AND token_id = 1
       ORDER BY block_number, log_index, seq`,
      [lower(art)],
    );
    expect(activity.map((a) => a.kind)).toEqual(["mint", "offer_accepted", "sale"]);
    expect(activity[1]).toEqual({
      kind: "offer_accepted",
      from: lower(artist.address),
      to: lower(bob.address),
      price: parseEther("0.1").toString(),
    });
    // The offerer hears what they bought, the seller that it sold.
    const notes = await q(
      "SELECT address, kind, message FROM notifications WHERE data->>'tx' = $1 ORDER BY kind",
      [accepted.transactionHash],
    );
    expect(notes).toEqual([
      {
        address: lower(bob.address),
        kind: "offer_accepted",
        message: "Your collection offer of 0.1 ETH was accepted: you bought “Tidal #1”.",
      },
      expect.objectContaining({ address: lower(artist.address), kind: "sale" }),
    ]);

    await d.market(bob, "cancelCollectionOffer", [offer]);
    await indexToHead(options);
    expect(await offerRow(id)).toMatchObject({ quantity: 3, remaining: 0, status: "cancelled" });
  });

  it("indexes a trait offer (a token root) filled by its one token", async () => {
    const root = tokenRoot([3n, 4n]);
    const offer: CollectionOffer = {
      buyer: carol.address,
      collection: art,
      tokenRoot: root.root,
      price: parseEther("0.15"),
      expiresAt: await d.offerExpiry(),
    };
    const id = await makeCollectionOffer(offer, 1n);
    await d.market(artist, "acceptCollectionOffer", [offer, 4n, root.proof(4n)]);
    await indexToHead(options);
    expect(await offerRow(id)).toMatchObject({
      buyer: lower(carol.address),
      token_root: lower(root.root),
      quantity: 1,
      remaining: 0,
      status: "filled",
    });
    const [sale] = await q(
      "SELECT buyer, mechanism FROM chain_sales WHERE collection = $1 AND token_id = 4",
      [lower(art)],
    );
    expect(sale).toEqual({ buyer: lower(carol.address), mechanism: "collection-offer" });
  });
});

describe("item offers", () => {
  it("stores each offer's expiry, and tells an offerer whose expired offer was replaced", async () => {
    const first = (await t.publicClient.getBlock()).timestamp + 100n;
    await d.market(bob, "makeOffer", [art, 8n, parseEther("0.1"), first], parseEther("0.1"));
    // Past its expiry, a lower offer from anyone replaces it (and refunds it).
    await d.increaseTime(200);
    const second = await d.offerExpiry(3);
    const replaced = await d.market(
      carol,
      "makeOffer",
      [art, 8n, parseEther("0.05"), second],
      parseEther("0.05"),
    );
    await indexToHead(options);
    const offers = await q(
      "SELECT buyer, amount::text, status, expires_at FROM chain_offers WHERE collection = $1 AND token_id = 8 ORDER BY buyer",
      [lower(art)],
    );
    expect(offers).toEqual(
      [
        {
          buyer: lower(bob.address),
          amount: parseEther("0.1").toString(),
          status: "outbid",
          expires_at: new Date(Number(first) * 1000),
        },
        {
          buyer: lower(carol.address),
          amount: parseEther("0.05").toString(),
          status: "active",
          expires_at: new Date(Number(second) * 1000),
        },
      ].sort((a, b) => a.buyer.localeCompare(b.buyer)),
    );
    const [token] = await q(
      "SELECT offer::text, offer_expires_at FROM chain_tokens WHERE collection = $1 AND token_id = 8",
      [lower(art)],
    );
    expect(token).toEqual({
      offer: parseEther("0.05").toString(),
      offer_expires_at: new Date(Number(second) * 1000),
    });
    const notes = await q(
      "SELECT message FROM notifications WHERE data->>'tx' = $1 AND address = $2 AND kind = 'offer_outbid'",
      [replaced.transactionHash, lower(bob.address)],
    );
    expect(notes.map((n) => n.message)).toEqual([
      `Your expired offer on “Tidal #8” was replaced by ${shortAddress(lower(carol.address))}'s; it was refunded.`,
    ]);
  });
});

describe("carts", () => {
  it("indexes the purchases a buyMany made, and stores a skipped one's event without any change", async () => {
    await d.market(artist, "setSellOrder", [art, 6n, parseEther("0.2")]);
    await d.market(artist, "setSellOrder", [art, 7n, parseEther("0.3")]);
    await indexToHead(options);
    const before = await q(
      "SELECT count(*)::int AS n FROM chain_activity WHERE collection = $1 AND token_id = 7",
      [lower(art)],
    );
    // Token 7 is expected at another price than its listing's: that purchase fails and is skipped (refunded).
    const cart = [
      { collection: art, tokenId: 6n, price: parseEther("0.2") },
      { collection: art, tokenId: 7n, price: parseEther("0.25") },
    ];
    const receipt = await d.market(alice, "buyMany", [cart, [], false], parseEther("0.45"));
    await indexToHead(options);
    const sales = await q("SELECT token_id::text, buyer, mechanism FROM chain_sales WHERE tx_hash = $1", [
      receipt.transactionHash,
    ]);
    expect(sales).toEqual([{ token_id: "6", buyer: lower(alice.address), mechanism: "buy-now" }]);
    const [skipped] = await q(
      "SELECT name, args FROM chain_events WHERE tx_hash = $1 AND name = 'PurchaseSkipped'",
      [receipt.transactionHash],
    );
    expect(skipped?.args).toMatchObject({
      collection: lower(art),
      tokenId: "7",
      buyer: lower(alice.address),
      price: parseEther("0.25").toString(),
      reason: expect.stringMatching(/^0x[0-9a-f]{8}/),
    });
    const tokens = await q(
      "SELECT token_id::text, owner, status FROM chain_tokens WHERE collection = $1 AND token_id IN (6, 7) ORDER BY token_id",
      [lower(art)],
    );
    expect(tokens).toEqual([
      { token_id: "6", owner: lower(alice.address), status: "minted" },
      { token_id: "7", owner: lower(artist.address), status: "fix" },
    ]);
    const orders = await q(
      "SELECT token_id::text, status FROM chain_sell_orders WHERE collection = $1 AND token_id IN (6, 7) ORDER BY token_id",
      [lower(art)],
    );
    // The bought token's listing is sold (its transfer voided it first, in the same transaction); the skipped one's is still on.
    expect(orders).toEqual([
      { token_id: "6", status: "sold" },
      { token_id: "7", status: "active" },
    ]);
    expect(
      await q("SELECT count(*)::int AS n FROM chain_activity WHERE collection = $1 AND token_id = 7", [
        lower(art),
      ]),
    ).toEqual(before);
  });
});

describe("reorgs", () => {
  it("rolls collection offers back to the state they had before the dropped blocks", async () => {
    // An offer from before the branch: the dropped branch sells a token to it; a new offer is made there too.
    const kept: CollectionOffer = {
      buyer: carol.address,
      collection: art,
      tokenRoot: ZERO_ROOT,
      price: parseEther("0.12"),
      expiresAt: await d.offerExpiry(),
    };
    const keptId = await makeCollectionOffer(kept, 2n);
    await indexToHead(options);
    const keptBefore = await offerRow(keptId);
    const snapshot = await t.test.snapshot();
    const dropped = await t.publicClient.getBlockNumber({ cacheTime: 0 });
    await d.market(artist, "acceptCollectionOffer", [kept, 5n, []]);
    const gone = await makeCollectionOffer({ ...kept, buyer: bob.address, price: parseEther("0.11") }, 1n);
    await d.market(bob, "cancelCollectionOffer", [
      { ...kept, buyer: bob.address, price: parseEther("0.11") },
    ]);
    await indexToHead(options);
    expect(await offerRow(keptId)).toMatchObject({ remaining: 1 });
    expect(await offerRow(gone)).toMatchObject({ status: "cancelled" });

    const head = await t.publicClient.getBlockNumber({ cacheTime: 0 });
    await t.test.revert({ id: snapshot });
    // The canonical branch: another transaction, at least as long as the dropped one.
    await d.mint(artist, art, 10n);
    const now = await t.publicClient.getBlockNumber({ cacheTime: 0 });
    if (now < head) await t.test.mine({ blocks: Number(head - now) });
    expect(head).toBeGreaterThan(dropped);
    await indexToHead(options);
    expect(lines.filter((l) => l.includes("undoing batches"))).toHaveLength(1);
    expect(await offerRow(keptId)).toEqual(keptBefore);
    expect(await offerRow(gone)).toBeUndefined();
    expect(await q("SELECT * FROM chain_sales WHERE collection = $1 AND token_id = 5", [lower(art)])).toEqual(
      [],
    );
    // Equal to a fresh index of the chain as it now is.
    const fresh = await createScratchDatabase(inject("databaseUrl"), "market");
    try {
      await indexToHead(indexerOptions(fresh.db, configFor(t, fresh.url), t.publicClient));
      // Except the owners told of a collection offer: they are those of the works as the indexer found them
      // when it met the offer (a fresh index of an old offer meets other owners, or none yet); a dropped
      // offer's notices go with its blocks, which the lists above show.
      const [kept, again] = await Promise.all([dumpTables(scratch.db), dumpTables(fresh.db)]);
      const told = (tables: Record<string, unknown[]>) => ({
        ...tables,
        notifications: (tables.notifications ?? []).filter(
          (n) => (n as { kind: string }).kind !== "collection_offer",
        ),
      });
      expect(told(kept)).toEqual(told(again));
      expect(
        (kept.notifications ?? [])
          .filter((n) => (n as { kind: string; data: { offerId?: string } }).kind === "collection_offer")
          .map((n) => (n as { data: { offerId: string } }).data.offerId),
      ).not.toContain(gone);
    } finally {
      await fresh.drop();
    }
  });
});

describe("offers on an id before its mint", () => {
  it("shows the offer still current on the token row its mint creates, minted in a later batch or the same one", async () => {
    // The market does not read the token when an offer is made: an offer sent by hand can name an id not minted.
    const shoal = await d.createCollection(artist, "Shoal", "SHL");
    const tokenRow = async (id: number) =>
      (
        await q(
          "SELECT offer::text, offer_expires_at FROM chain_tokens WHERE collection = $1 AND token_id = $2",
          [lower(shoal), id],
        )
      )[0];
    const expiry1 = await d.offerExpiry(5);
    await d.market(bob, "makeOffer", [shoal, 1n, parseEther("0.1"), expiry1], parseEther("0.1"));
    // Beaten before the mint, in another batch: the beaten offer keeps its expiry, the new one is current.
    await indexToHead(options);
    const expiry2 = await d.offerExpiry(6);
    await d.market(carol, "makeOffer", [shoal, 1n, parseEther("0.2"), expiry2], parseEther("0.2"));
    await indexToHead(options);
    expect(await tokenRow(1)).toBeUndefined();
    expect(
      await q("SELECT buyer, status, expires_at FROM chain_offers WHERE collection = $1 AND token_id = 1", [
        lower(shoal),
      ]),
    ).toEqual(
      expect.arrayContaining([
        { buyer: lower(bob.address), status: "outbid", expires_at: new Date(Number(expiry1) * 1000) },
        { buyer: lower(carol.address), status: "active", expires_at: new Date(Number(expiry2) * 1000) },
      ]),
    );
    await d.mint(artist, shoal, 1n);
    await indexToHead(options);
    expect(await tokenRow(1)).toEqual({
      offer: parseEther("0.2").toString(),
      offer_expires_at: new Date(Number(expiry2) * 1000),
    });

    // An offer and the mint in one batch; and an id whose offer was cancelled before its mint shows none.
    await d.market(bob, "makeOffer", [shoal, 2n, parseEther("0.3"), expiry1], parseEther("0.3"));
    await d.market(alice, "makeOffer", [shoal, 3n, parseEther("0.4"), expiry1], parseEther("0.4"));
    await d.market(alice, "cancelOffer", [shoal, 3n]);
    await d.mint(artist, shoal, 2n);
    await d.mint(artist, shoal, 3n);
    await indexToHead(options);
    expect(await tokenRow(2)).toEqual({
      offer: parseEther("0.3").toString(),
      offer_expires_at: new Date(Number(expiry1) * 1000),
    });
    expect(await tokenRow(3)).toEqual({ offer: null, offer_expires_at: null });

    // A fresh index of the same chain agrees.
    const fresh = await createScratchDatabase(inject("databaseUrl"), "market");
    try {
      await indexToHead(indexerOptions(fresh.db, configFor(t, fresh.url), t.publicClient));
      const again = async (id: number) =>
        (
          await fresh.db.$client.query(
            "SELECT offer::text, offer_expires_at FROM chain_tokens WHERE collection = $1 AND token_id = $2",
            [lower(shoal), id],
          )
        ).rows[0];
      for (const id of [1, 2, 3]) expect(await again(id)).toEqual(await tokenRow(id));
    } finally {
      await fresh.drop();
    }
  });
});

describe("tokens their owners cannot sell now", () => {
  it("leaves a token in an auction (still its seller's) and one sent to the market by hand out of a collection offer's notices; a rescue hands the latter on", async () => {
    const reef = await d.createCollection(artist, "Reef", "REF");
    for (const id of [1n, 2n, 3n]) await d.mint(artist, reef, id);
    await d.approve(artist, reef);
    // Each has an item offer that the collection offer below beats.
    for (const id of [1n, 2n, 3n])
      await d.market(
        bob,
        "makeOffer",
        [reef, id, parseEther("0.1"), await d.offerExpiry()],
        parseEther("0.1"),
      );
    await d.market(artist, "setStandardAuction", [reef, 1n, parseEther("1"), 0n, 3600n]);
    await d.collection(artist, reef, "transferFrom", [artist.address, t.market, 2n]);
    await indexToHead(options);
    const tokens = () =>
      q(
        "SELECT token_id::text, owner, holder, status FROM chain_tokens WHERE collection = $1 ORDER BY token_id",
        [lower(reef)],
      );
    const seller = lower(artist.address);
    // The auction leaves the token with its seller (owner and holder); the market holds only the one sent to it,
    // whose sender stays its owner until the rescue.
    expect(await tokens()).toEqual([
      { token_id: "1", owner: seller, holder: seller, status: "auction" },
      { token_id: "2", owner: seller, holder: lower(t.market), status: "minted" },
      { token_id: "3", owner: seller, holder: seller, status: "minted" },
    ]);

    const offerId = await makeCollectionOffer(
      {
        buyer: carol.address,
        collection: reef,
        tokenRoot: ZERO_ROOT,
        price: parseEther("0.2"),
        expiresAt: await d.offerExpiry(),
      },
      1n,
    );
    await indexToHead(options);
    const told = await q(
      "SELECT address, data FROM notifications WHERE kind = 'collection_offer' AND data->>'offerId' = $1",
      [offerId],
    );
    expect(told).toEqual([{ address: seller, data: expect.objectContaining({ tokenId: "3", works: 1 }) }]);

    // The operator returns the stray token to whom it belongs: a transfer like any other.
    const rescue = await d.market(admin, "rescueToken", [reef, 2n, alice.address]);
    await indexToHead(options);
    expect((await tokens())[1]).toEqual({
      token_id: "2",
      owner: lower(alice.address),
      holder: lower(alice.address),
      status: "minted",
    });
    expect(
      await q(
        `SELECT "from", "to" FROM chain_activity WHERE collection = $1 AND token_id = 2 AND kind = 'transfer'
         ORDER BY block_number, log_index`,
        [lower(reef)],
      ),
    ).toEqual([
      { from: seller, to: lower(t.market) },
      { from: lower(t.market), to: lower(alice.address) },
    ]);
    expect(
      await q("SELECT address, kind FROM notifications WHERE data->>'tx' = $1", [rescue.transactionHash]),
    ).toEqual([{ address: lower(alice.address), kind: "transfer" }]);
  });
});

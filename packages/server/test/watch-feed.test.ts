/**
 * Issue 49 §3: the market-wide activity feed (`GET /api/activity`), the watchlist (`GET /api/watchlist`) and
 * its alerts (a favourited item listed, repriced, bid on: from the indexer's batch; ending within the hour:
 * from the worker, once).
 */
import type { ActivityFeedResponse, FeedRow, SignedListingOrder, WatchlistResponse } from "@easel/common";
import {
  easelCollectionAbi,
  easelMarketAbi,
  SIGNED_LISTING_DOMAIN,
  signedListingTypes,
} from "@easel/contracts";
import { type Address, parseEther } from "viem";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { loadConfig } from "../src/config.ts";
import { resetChainData } from "../src/indexer/indexer.ts";
import {
  admin,
  alice,
  artist,
  bob,
  carol,
  createScratchDatabase,
  driver,
  indexerFor,
  startTestChain,
  type TestChain,
} from "../src/indexer/testing.ts";
import { alertEndingAuctions } from "../src/worker/endingSoon.ts";
import { type AccountsApi, startAccountsApi, type TestUser } from "./accounts-helpers.ts";

let t: TestChain;
let d: ReturnType<typeof driver>;
let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
let api: AccountsApi;
let users: Record<"artist" | "alice" | "bob" | "carol", TestUser>;
let harbour: `0x${string}`;
let meadow: `0x${string}`;
let index: () => Promise<void>;

const lower = (a: string) => a.toLowerCase();

beforeAll(async () => {
  t = await startTestChain();
  scratch = await createScratchDatabase(inject("databaseUrl"), "watch");
  d = driver(t);
  for (const who of [artist, carol]) await d.market(admin, "setArtistVerified", [who.address, true]);
  harbour = await d.createCollection(artist, "Harbour Lights", "HRB");
  meadow = await d.createCollection(carol, "Meadow", "MDW");
  for (const id of [1n, 2n, 3n, 4n]) await d.mint(artist, harbour, id);
  await d.mint(carol, meadow, 1n);
  await d.approve(artist, harbour);
  await d.approve(carol, meadow);
  const env = t.env(scratch.url);
  const config = loadConfig(env);
  index = indexerFor(scratch.db, config);
  await index();
  api = await startAccountsApi(env);
  users = {
    artist: await api.signIn(artist as never),
    alice: await api.signIn(alice as never),
    bob: await api.signIn(bob as never),
    carol: await api.signIn(carol as never),
  };
  // Carol watches Harbour 1 to 4 and asked for notifications by email (confirmed); alice watches 2.
  for (const [user, tokenId] of [
    [users.carol, "1"],
    [users.carol, "2"],
    [users.carol, "3"],
    [users.carol, "4"],
    [users.alice, "2"],
  ] as const) {
    const hearted = await api.call("POST", "/api/nft/favorite", {
      user,
      body: { collection: lower(harbour), tokenId, favorite: true },
    });
    expect(hearted.status).toBe(200);
  }
  await scratch.db.$client.query(
    `UPDATE profiles SET email = 'carol@example.com', email_verified_at = now(), notif_allow = '{"email": true}'
     WHERE address = $1`,
    [lower(carol.address)],
  );
}, 180_000);

afterAll(async () => {
  await api?.close();
  await scratch?.drop();
  await t?.stop();
});

const alerts = async (who: { address: string }, kind: string) =>
  (
    await scratch.db.$client.query<{ message: string; data: Record<string, string> }>(
      "SELECT message, data FROM notifications WHERE address = $1 AND kind = $2 ORDER BY created_at, message",
      [lower(who.address), kind],
    )
  ).rows;

describe("watch alerts", () => {
  it("tell the watchers of a listing, a new price and each bid, in the batch of the event", async () => {
    await d.market(artist, "setSellOrder", [harbour, 1n, parseEther("1")]);
    await index();
    expect((await alerts(carol, "watch_listed")).map((a) => a.message)).toEqual([
      "“Harbour Lights #1”, which you favourited, was listed for 1 ETH.",
    ]);
    await d.market(artist, "setSellOrder", [harbour, 1n, parseEther("0.8")]);
    await index();
    expect((await alerts(carol, "watch_price")).map((a) => a.message)).toEqual([
      "The price of “Harbour Lights #1”, which you favourited, is now 0.8 ETH.",
    ]);

    await d.market(artist, "setStandardAuction", [harbour, 2n, parseEther("1"), 0n, 1_800n]);
    await index();
    for (const who of [carol, alice])
      expect((await alerts(who, "watch_listed")).map((a) => a.message)).toContain(
        "“Harbour Lights #2”, which you favourited, went on auction from 1 ETH.",
      );

    // Alice bids: carol hears of it in the batch that indexed the bid; alice, who bid, does not.
    const bid = await d.market(alice, "placeBid", [harbour, 2n, parseEther("1")], parseEther("1"));
    expect(await alerts(carol, "watch_bid")).toEqual([]);
    await index();
    const [first] = await alerts(carol, "watch_bid");
    expect(first?.message).toMatch(
      /^0x[0-9a-f]{2}…[0-9a-f]{4} bid 1 ETH on “Harbour Lights #2”, which you favourited\.$/,
    );
    expect(first?.data.block).toBe(String(bid.blockNumber));
    expect(first?.data.tx).toBe(bid.transactionHash);
    expect(await alerts(alice, "watch_bid")).toEqual([]);

    // Bob outbids alice: she is told she was outbid, not also that someone bid.
    await d.market(bob, "placeBid", [harbour, 2n, parseEther("1.2")], parseEther("1.2"));
    await index();
    expect(await alerts(carol, "watch_bid")).toHaveLength(2);
    expect(await alerts(alice, "watch_bid")).toEqual([]);
    expect(await alerts(alice, "outbid")).toHaveLength(1);
    // The seller is told of the bids as a seller, never as a watcher; carol's mail carries her alerts.
    expect(await alerts(artist, "watch_bid")).toEqual([]);
    const { rows: mail } = await scratch.db.$client.query<{ text: string }>(
      `SELECT text FROM mail_outbox WHERE "to" = 'carol@example.com'`,
    );
    expect(mail.some((m) => m.text.startsWith("The price of “Harbour Lights #1”"))).toBe(true);
    expect(mail.filter((m) => m.text.includes("bid 1.2 ETH on “Harbour Lights #2”"))).toHaveLength(1);
  });

  it("tell the watchers once that an auction ends within the hour, and never too early", async () => {
    // Harbour 4 ends in a day: not yet.
    await d.market(artist, "setStandardAuction", [harbour, 4n, parseEther("2"), 0n, 86_400n]);
    await index();
    const written = await alertEndingAuctions(scratch.db);
    expect(written).toBe(2);
    const ending = await alerts(carol, "watch_ending");
    expect(ending.map((a) => a.data.tokenId)).toEqual(["2"]);
    expect(ending[0]?.message).toMatch(
      /^The auction of “Harbour Lights #2”, which you favourited, ends in \d+ minutes; the top bid is 1\.2 ETH\.$/,
    );
    expect(await alerts(alice, "watch_ending")).toHaveLength(1);
    expect(await alerts(artist, "watch_ending")).toEqual([]);
    // Once per auction: the next passes write nothing, and mail nothing again.
    expect(await alertEndingAuctions(scratch.db)).toBe(0);
    expect(await alertEndingAuctions(scratch.db)).toBe(0);
    const { rows: mail } = await scratch.db.$client.query<{ text: string }>(
      `SELECT text FROM mail_outbox WHERE "to" = 'carol@example.com' AND text LIKE 'The auction of%'`,
    );
    expect(mail.map((m) => m.text.split("\n")[0])).toEqual([ending[0]?.message]);
    // 23.5 hours on, Harbour 4's turn comes: the chain's clock counts, as of its latest indexed event.
    await d.increaseTime(23.5 * 3600);
    await d.market(admin, "setArtistVerified", [bob.address, true]);
    await index();
    expect(await alertEndingAuctions(scratch.db)).toBe(1);
    expect((await alerts(carol, "watch_ending")).map((a) => a.data.tokenId).sort()).toEqual(["2", "4"]);
  });
});

describe("the watchlist", () => {
  it("lists every favourited item with its live state, latest first, to its owner only", async () => {
    const signedOut = await api.call("GET", "/api/watchlist");
    expect(signedOut.status).toBe(401);
    const { body } = await api.call<WatchlistResponse>("GET", "/api/watchlist", { user: users.carol });
    expect(body.data.total).toBe(4);
    expect(body.data.items.map((i) => i.tokenId)).toEqual(["4", "3", "2", "1"]);
    const byId = new Map(body.data.items.map((i) => [i.tokenId, i]));
    expect(byId.get("1")).toMatchObject({ status: "fix", priceWei: parseEther("0.8").toString() });
    expect(byId.get("2")).toMatchObject({
      status: "auction",
      auctionKind: "standard",
      topBidWei: parseEther("1.2").toString(),
    });
    expect(byId.get("2")?.endTime).toBeTruthy();
    expect(byId.get("3")).toMatchObject({ status: "minted", soldAt: null, topBidWei: null });
    // Paged: two at a time, the same items.
    const first = await api.call<WatchlistResponse>("GET", "/api/watchlist?limit=2", { user: users.carol });
    const next = await api.call<WatchlistResponse>(
      "GET",
      `/api/watchlist?limit=2&cursor=${first.body.data.nextCursor}`,
      { user: users.carol },
    );
    expect([...first.body.data.items, ...next.body.data.items].map((i) => i.tokenId)).toEqual([
      "4",
      "3",
      "2",
      "1",
    ]);
    expect(next.body.data.nextCursor).toBeNull();
  });

  it("shows a sold item as sold", async () => {
    await d.market(bob, "buyNow", [harbour, 1n], parseEther("0.8"));
    await index();
    const { body } = await api.call<WatchlistResponse>("GET", "/api/watchlist", { user: users.carol });
    const sold = body.data.items.find((i) => i.tokenId === "1");
    expect(sold).toMatchObject({ status: "minted", lastPriceWei: parseEther("0.8").toString() });
    expect(sold?.soldAt).toBeTruthy();
  });
});

describe("the activity feed", () => {
  const feed = async (query: string) => {
    const response = await api.call<ActivityFeedResponse>("GET", `/api/activity${query}`);
    if (response.status !== 200)
      throw new Error(`${query}: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body.data;
  };
  const all = async (query: string, limit: number) => {
    const rows: FeedRow[] = [];
    let cursor: string | null = null;
    do {
      const page = await feed(`?${query}&limit=${limit}${cursor ? `&cursor=${cursor}` : ""}`);
      rows.push(...page.activity);
      cursor = page.nextCursor;
    } while (cursor);
    return rows;
  };

  it("shows sales, listings, bids and offers of every collection, newest first", async () => {
    await d.market(
      bob,
      "makeOffer",
      [harbour, 3n, parseEther("0.1"), await d.offerExpiry()],
      parseEther("0.1"),
    );
    await d.market(carol, "setSellOrder", [meadow, 1n, parseEther("0.5")]);
    await index();
    const { activity, nextCursor } = await feed("");
    expect(nextCursor).toBeNull();
    expect(activity.map((r) => `${r.kind} ${r.itemName}`)).toEqual([
      "list Meadow #1",
      "offer Harbour Lights #3",
      "sale Harbour Lights #1",
      "auction Harbour Lights #4",
      "bid Harbour Lights #2",
      "bid Harbour Lights #2",
      "auction Harbour Lights #2",
      "list Harbour Lights #1",
      "list Harbour Lights #1",
    ]);
    const sale = activity.find((r) => r.kind === "sale");
    expect(sale).toMatchObject({
      collection: { address: lower(harbour), name: "Harbour Lights" },
      itemPath: `/${lower(artist.address)}/Harbour%20Lights/1`,
      priceWei: parseEther("0.8").toString(),
      to: { address: lower(bob.address) },
    });
  });

  it("filters by kind and by collection", async () => {
    expect((await feed("?kind=bid")).activity.map((r) => r.priceWei)).toEqual([
      parseEther("1.2").toString(),
      parseEther("1").toString(),
    ]);
    expect((await feed("?kind=list")).activity.map((r) => r.kind)).toEqual([
      "list",
      "auction",
      "auction",
      "list",
      "list",
    ]);
    expect((await feed("?kind=sale")).activity).toHaveLength(1);
    expect((await feed("?kind=offer")).activity.map((r) => r.tokenId)).toEqual(["3"]);
    expect((await feed(`?collection=${meadow}`)).activity.map((r) => r.kind)).toEqual(["list"]);
    expect((await feed(`?collection=${harbour}&kind=list`)).activity).toHaveLength(4);
    const bad = await api.call("GET", "/api/activity?kind=transfer");
    expect(bad.status).toBe(400);
  });

  it("pages by keyset: every row once, in order, at any page size", async () => {
    const whole = (await feed("?limit=50")).activity.map((r) => r.id);
    expect(new Set(whole).size).toBe(whole.length);
    for (const limit of [1, 2, 4]) expect((await all("", limit)).map((r) => r.id)).toEqual(whole);
    const lists = (await feed("?kind=list&limit=50")).activity.map((r) => r.id);
    expect((await all("kind=list", 2)).map((r) => r.id)).toEqual(lists);
    const bad = await api.call("GET", "/api/activity?cursor=bm90LWEtY3Vyc29y");
    expect(bad.status).toBe(400);
  });

  it("leaves blocked collections out", async () => {
    await d.market(admin, "setCollectionBlocked", [meadow, true]);
    await index();
    expect((await feed("")).activity.some((r) => r.collection.address === lower(meadow))).toBe(false);
  });
});

describe("watch alerts of signed listings", () => {
  /** The artist's signed order for a Harbour token at `price`, as the chain stands now. */
  async function signedOrder(tokenId: bigint, price: bigint) {
    const [transferCount, counter, block] = await Promise.all([
      t.publicClient.readContract({
        address: harbour,
        abi: easelCollectionAbi,
        functionName: "transferCountOf",
        args: [tokenId],
      }),
      t.publicClient.readContract({
        address: t.market,
        abi: easelMarketAbi,
        functionName: "listingCounterOf",
        args: [artist.address],
      }),
      t.publicClient.getBlock(),
    ]);
    const order: SignedListingOrder = {
      collection: harbour,
      tokenId: tokenId.toString(),
      price: price.toString(),
      seller: artist.address,
      transferCount: transferCount.toString(),
      counter: counter.toString(),
      expiresAt: String(Number(block.timestamp) + 30 * 86_400),
      maxFeeBps: 1_000,
    };
    const signature = await artist.signTypedData({
      domain: { ...SIGNED_LISTING_DOMAIN, chainId: 31337, verifyingContract: t.market },
      types: signedListingTypes,
      primaryType: "SignedListing",
      message: {
        collection: harbour as Address,
        tokenId,
        price,
        seller: artist.address,
        transferCount,
        counter,
        expiresAt: BigInt(order.expiresAt),
        maxFeeBps: order.maxFeeBps,
      },
    });
    return { order, signature };
  }

  it("tell the watchers of a gasless listing and of its new price, once each", async () => {
    const first = await signedOrder(3n, parseEther("0.5"));
    const posted = await api.call("POST", "/api/signed-listings", { user: users.artist, body: first });
    expect(posted.status, JSON.stringify(posted.body)).toBe(201);
    expect((await alerts(carol, "watch_listed")).map((a) => a.message)).toContain(
      "“Harbour Lights #3”, which you favourited, was listed for 0.5 ETH.",
    );
    // The same order again (a retry) alerts nobody twice.
    expect((await api.call("POST", "/api/signed-listings", { user: users.artist, body: first })).status).toBe(
      201,
    );
    const second = await signedOrder(3n, parseEther("0.4"));
    expect(
      (await api.call("POST", "/api/signed-listings", { user: users.artist, body: second })).status,
    ).toBe(201);
    const listed = (await alerts(carol, "watch_listed")).filter((a) => a.data.tokenId === "3");
    expect(listed).toHaveLength(1);
    expect((await alerts(carol, "watch_price")).map((a) => a.message)).toContain(
      "The price of “Harbour Lights #3”, which you favourited, is now 0.4 ETH.",
    );
    expect(await alerts(artist, "watch_listed")).toEqual([]);
  });
});

describe("watch alerts after the chain is read again", () => {
  it("tell nobody of what happened before they watched", async () => {
    // Bob hearts Harbour 2 after its auction and its bids were indexed, then the index is rebuilt.
    const hearted = await api.call("POST", "/api/nft/favorite", {
      user: users.bob,
      body: { collection: lower(harbour), tokenId: "2", favorite: true },
    });
    expect(hearted.status).toBe(200);
    const carolBefore = await alerts(carol, "watch_bid");
    expect(carolBefore.length).toBeGreaterThan(0);
    await resetChainData(scratch.db.$client);
    await index();
    for (const kind of ["watch_listed", "watch_bid", "watch_price"])
      expect(await alerts(bob, kind)).toEqual([]);
    // Those who watched already keep theirs, once.
    expect(await alerts(carol, "watch_bid")).toEqual(carolBefore);
    // What happens after bob hearts an item reaches him like everyone else.
    await d.mint(artist, harbour, 5n);
    await index();
    const later = await api.call("POST", "/api/nft/favorite", {
      user: users.bob,
      body: { collection: lower(harbour), tokenId: "5", favorite: true },
    });
    expect(later.status).toBe(200);
    await d.market(artist, "setSellOrder", [harbour, 5n, parseEther("0.3")]);
    await index();
    expect((await alerts(bob, "watch_listed")).map((a) => a.message)).toEqual([
      "“Harbour Lights #5”, which you favourited, was listed for 0.3 ETH.",
    ]);
  });
});

/**
 * Attacks on the signed-listing book (attack review items 3 and 6), each reproduced on a real anvil chain with
 * Easel's contracts, a real PostgreSQL, the real indexer and the worker's recheck, and expected refused:
 * - An order the chain refuses only for now (a withdrawn approval, a ban, a block, a contract wallet saying no)
 *   is paused, not retired: it stays on its seller's Manage (they can cancel it), its signature is never handed
 *   to a stranger, and it comes back to the book when the chain says live again. Only final states retire.
 * - Listings the chain refuses leave browse and the floor within the indexer's batch (withdrawn approval, ban,
 *   block) or within the worker's schedule (contract wallets), not when someone happens to ask `/fill`.
 * - A market lock, or the market's entrance lock (which refuses fills too), changes nothing in the book.
 * - A fee raised above an order's `maxFeeBps` pauses it (reason "fee") until the fee comes down.
 */
import type { SignedListingOrder } from "@easel/common";
import {
  easelCollectionAbi,
  easelMarketAbi,
  SIGNED_LISTING_DOMAIN,
  SIGNED_LISTING_STATUS,
  signedListingTypes,
  testWalletArtifact,
} from "@easel/contracts";
import { type Address, encodeFunctionData, type Hex, parseEther } from "viem";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createChainClient } from "../src/chain/client.ts";
import { type Config, loadConfig } from "../src/config.ts";
import type { IndexerOptions } from "../src/indexer/indexer.ts";
import {
  admin,
  alice,
  artist,
  bob,
  carol,
  createScratchDatabase,
  driver,
  indexerOptions,
  indexToHead,
  startTestChain,
  type TestChain,
} from "../src/indexer/testing.ts";
import { applyVerdict, chainOrder, withProjectionLock } from "../src/trading/signedListings.ts";
import { recheckSignedListings } from "../src/worker/signedListings.ts";
import { type AccountsApi, expectError, startAccountsApi, type TestUser } from "./accounts-helpers.ts";

type Account = typeof artist;
type Listing = { id: string; order: SignedListingOrder; status: string; createdAt: string };
type Mine = {
  data: (Listing & { name: string; path: string | null; pausedReason: string | null })[];
  counter: string;
};
type Fill = { data: { id: string; order: SignedListingOrder; signature: Hex } };

let t: TestChain;
let d: ReturnType<typeof driver>;
let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
let api: AccountsApi;
let config: Config;
let options: IndexerOptions;
let users: Record<"artist" | "alice", TestUser>;
/** Quay: the artist's tokens 1..16 (the market approved for all); Pier: alice's tokens 1..3. */
let quay: Address;
let pier: Address;

const PRICE = parseEther("0.5");
const CHEAP = parseEther("0.1");
const DAY = 86_400;

const index = () => indexToHead(options);
const recheck = () =>
  recheckSignedListings({ db: scratch.db, chain: options.chain, market: config.contracts.market });
const q = async <T = Record<string, unknown>>(text: string, values: unknown[] = []) =>
  (await scratch.db.$client.query(text, values)).rows as T[];

async function orderFor(
  seller: Address,
  collection: Address,
  tokenId: bigint,
  change: Partial<SignedListingOrder> = {},
): Promise<SignedListingOrder> {
  const [transferCount, counter, block] = await Promise.all([
    t.publicClient.readContract({
      address: collection,
      abi: easelCollectionAbi,
      functionName: "transferCountOf",
      args: [tokenId],
    }),
    t.publicClient.readContract({
      address: t.market,
      abi: easelMarketAbi,
      functionName: "listingCounterOf",
      args: [seller],
    }),
    t.publicClient.getBlock(),
  ]);
  return {
    collection: collection.toLowerCase(),
    tokenId: tokenId.toString(),
    price: PRICE.toString(),
    seller: seller.toLowerCase(),
    transferCount: transferCount.toString(),
    counter: counter.toString(),
    expiresAt: String(Number(block.timestamp) + 30 * DAY),
    // The primary commission: the highest fee the tests' first sales pay.
    maxFeeBps: 1_000,
    ...change,
  };
}

const sign = (who: Account, order: SignedListingOrder): Promise<Hex> =>
  who.signTypedData({
    domain: { ...SIGNED_LISTING_DOMAIN, chainId: 31337, verifyingContract: t.market },
    types: signedListingTypes,
    primaryType: "SignedListing",
    message: chainOrder(order),
  });

/** Signs and posts `who`'s order; expects it stored and shown. */
async function list(
  collection: Address,
  tokenId: bigint,
  change: Partial<SignedListingOrder> = {},
  who: Account = artist,
  user: TestUser = users.artist,
  signer: Account = who,
) {
  const order = await orderFor(who.address, collection, tokenId, change);
  const res = await api.call<{ data: Listing }>("POST", "/api/signed-listings", {
    user,
    body: { order, signature: await sign(signer, order) },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  expect(res.body.data.status).toBe("active");
  return res.body.data;
}

/** What a stranger gets (no session). */
const fill = (collection: Address, tokenId: bigint) =>
  api.call<Fill>("GET", `/api/signed-listings/fill?collection=${collection}&tokenId=${tokenId}`);

const mine = async (user: TestUser) => {
  const res = await api.call<Mine>("GET", "/api/signed-listings/mine", { user });
  expect(res.status).toBe(200);
  return res.body.data;
};

const rowOf = async (id: string) =>
  (
    await q<{ status: string; paused_reason: string | null }>(
      "SELECT status, paused_reason FROM signed_listings WHERE id = $1",
      [id],
    )
  )[0];

const tokenRow = async (collection: Address, tokenId: bigint) =>
  (
    await q<{ status: string; price: string | null }>(
      "SELECT status, price::text FROM chain_tokens WHERE collection = $1 AND token_id = $2",
      [collection.toLowerCase(), tokenId.toString()],
    )
  )[0];

const floorOf = async (collection: Address) =>
  (
    await q<{ floor: string | null }>(
      "SELECT floor_price::text AS floor FROM chain_collections WHERE address = $1",
      [collection.toLowerCase()],
    )
  )[0]?.floor ?? null;

/** The collection's buy-now items in explore, cheapest first: what a visitor can see for sale. */
async function forSale(collection: Address): Promise<string[]> {
  const res = await api.call<{ data: { nfts: { tokenId: string }[] } }>(
    "GET",
    `/api/explore?status=buyNow&sort=priceLowToHigh&collection=${collection.toLowerCase()}`,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.nfts.map((n) => n.tokenId);
}

const setApprovalForAll = (who: Account, collection: Address, approved: boolean) =>
  d.collection(who, collection, "setApprovalForAll", [t.market, approved]);

/** Makes every scheduled recheck due now (as if its time had come). */
const dueNow = () => q("UPDATE signed_listings SET recheck_at = now() WHERE recheck_at IS NOT NULL");

beforeAll(async () => {
  t = await startTestChain();
  scratch = await createScratchDatabase(inject("databaseUrl"), "abuse_listings");
  d = driver(t);
  await d.market(admin, "setArtistVerified", [artist.address, true]);
  await d.market(admin, "setArtistVerified", [alice.address, true]);
  quay = await d.createCollection(artist, "Quay", "QUA");
  for (let id = 1n; id <= 16n; id++) await d.mint(artist, quay, id);
  await d.approve(artist, quay);
  pier = await d.createCollection(alice, "Pier", "PIE");
  for (let id = 1n; id <= 3n; id++) await d.mint(alice, pier, id);
  await d.approve(alice, pier);
  const env = t.env(scratch.url);
  config = loadConfig(env);
  options = indexerOptions(scratch.db, config, createChainClient(config.chainId, config.rpcUrls));
  await index();
  api = await startAccountsApi(env);
  users = {
    artist: await api.signIn(artist as never),
    alice: await api.signIn(alice as never),
  };
}, 180_000);

afterAll(async () => {
  await api?.close();
  await scratch?.drop();
  await t?.stop();
});

describe("an order the chain refuses only for now is paused, not retired (item 3)", () => {
  it("a stranger cannot buy at the old price: the seller still sees it on Manage and cancels it on chain", async () => {
    const listing = await list(quay, 1n);
    expect((await fill(quay, 1n)).status).toBe(200);
    // The seller withdraws the market's approval; a stranger asks /fill before the indexer has seen it.
    await setApprovalForAll(artist, quay, false);
    expectError(await fill(quay, 1n), 404, { message: "This listing is no longer available." });
    // Hidden from buyers, not retired: the chain would fill it again once the market is approved.
    expect(await rowOf(listing.id)).toEqual({ status: "paused", paused_reason: "notApproved" });
    expect((await tokenRow(quay, 1n))?.status).toBe("minted");
    const row = (await mine(users.artist)).find((l) => l.id === listing.id);
    expect(row).toMatchObject({ status: "paused", pausedReason: "notApproved" });
    expect(JSON.stringify(row)).not.toContain("signature");
    // The approval comes back (for another sale): the order is fillable on chain again, but its signature is
    // not handed to anyone until the worker puts it back in the book.
    await setApprovalForAll(artist, quay, true);
    await index();
    expectError(await fill(quay, 1n), 404);
    expect((await mine(users.artist)).find((l) => l.id === listing.id)?.status).toBe("paused");
    // Its seller, who sees it on Manage, cancels it on chain: the old signature is useless from then on.
    await d.market(artist, "cancelSignedListing", [quay, 1n]);
    await index();
    expect((await rowOf(listing.id))?.status).toBe("cancelled");
    expect((await mine(users.artist)).some((l) => l.id === listing.id)).toBe(false);
    const status = await t.publicClient.readContract({
      address: t.market,
      abi: easelMarketAbi,
      functionName: "signedListingStatus",
      args: [chainOrder(listing.order), await sign(artist, listing.order)],
    });
    expect(status).toBe(SIGNED_LISTING_STATUS.void);
  });

  it("never hands a paused order's signature to a stranger, and shows it again once the chain says live", async () => {
    const listing = await list(quay, 2n);
    await setApprovalForAll(artist, quay, false);
    expectError(await fill(quay, 2n), 404);
    expect((await rowOf(listing.id))?.status).toBe("paused");
    await setApprovalForAll(artist, quay, true);
    await index();
    // Still refused to strangers until the recheck: /fill does not look at paused orders.
    expectError(await fill(quay, 2n), 404);
    const result = await recheck();
    expect(result.shown).toBeGreaterThanOrEqual(1);
    expect(await rowOf(listing.id)).toEqual({ status: "active", paused_reason: null });
    expect(await tokenRow(quay, 2n)).toMatchObject({ status: "fix", price: PRICE.toString() });
    const res = await fill(quay, 2n);
    expect(res.status).toBe(200);
    expect(res.body.data.id).toBe(listing.id);
  });

  it("pauses on a ban and on a block, and brings the orders back when they are lifted", async () => {
    const banned = await list(quay, 3n);
    const blocked = await list(quay, 4n);
    await d.market(admin, "setTokenBlocked", [quay, 4n, true]);
    expectError(await fill(quay, 4n), 404);
    expect(await rowOf(blocked.id)).toEqual({ status: "paused", paused_reason: "tokenBlocked" });
    await d.market(admin, "setBanned", [artist.address, true]);
    // The indexer pauses the banned seller's orders in the ban's batch, before anyone asks /fill.
    await index();
    expect(await rowOf(banned.id)).toEqual({ status: "paused", paused_reason: "banned" });
    expect((await tokenRow(quay, 3n))?.status).toBe("minted");
    const manage = await mine(users.artist);
    expect(manage.find((l) => l.id === banned.id)?.pausedReason).toBe("banned");
    expect(manage.find((l) => l.id === blocked.id)?.pausedReason).toBe("tokenBlocked");
    await d.market(admin, "setBanned", [artist.address, false]);
    await index();
    await recheck();
    expect((await rowOf(banned.id))?.status).toBe("active");
    // The block still holds: the token's order stays paused.
    expect(await rowOf(blocked.id)).toEqual({ status: "paused", paused_reason: "tokenBlocked" });
    await d.market(admin, "setTokenBlocked", [quay, 4n, false]);
    await index();
    await recheck();
    expect((await rowOf(blocked.id))?.status).toBe("active");
    expect((await tokenRow(quay, 4n))?.status).toBe("fix");
  });

  it("retires only on final states: expired, bumped, void, cancelled and filled, paused orders included", async () => {
    // Void: the token moved (the recheck of /fill says so before the indexer does).
    const moved = await list(quay, 5n);
    await d.collection(artist, quay, "transferFrom", [artist.address, carol.address, 5n]);
    expectError(await fill(quay, 5n), 404);
    expect((await rowOf(moved.id))?.status).toBe("void");
    // A paused order whose token then moves is void too (the indexer's transfer).
    const pausedThenMoved = await list(quay, 6n);
    await setApprovalForAll(artist, quay, false);
    await index();
    expect((await rowOf(pausedThenMoved.id))?.status).toBe("paused");
    await d.collection(artist, quay, "transferFrom", [artist.address, carol.address, 6n]);
    await index();
    expect((await rowOf(pausedThenMoved.id))?.status).toBe("void");
    // Bumped while paused: the seller's counter moved on.
    const pausedThenBumped = await list(pier, 1n, {}, alice, users.alice);
    await setApprovalForAll(alice, pier, false);
    await index();
    expect((await rowOf(pausedThenBumped.id))?.status).toBe("paused");
    await d.market(alice, "incrementListingCounter", []);
    await index();
    expect((await rowOf(pausedThenBumped.id))?.status).toBe("bumped");
    await setApprovalForAll(alice, pier, true);
    await setApprovalForAll(artist, quay, true);
    await index();
    // Expired while paused: the worker's recheck retires it.
    const block = await t.publicClient.getBlock();
    const now = Math.max(Number(block.timestamp), Math.floor(Date.now() / 1000));
    const short = await list(quay, 7n, { expiresAt: String(now + 5) });
    await setApprovalForAll(artist, quay, false);
    await index();
    expect((await rowOf(short.id))?.status).toBe("paused");
    await d.increaseTime(60);
    await dueNow();
    await recheck();
    expect((await rowOf(short.id))?.status).toBe("expired");
    await setApprovalForAll(artist, quay, true);
    await index();
    // Filled: a buyer fills the order /fill gave.
    const sold = await list(quay, 8n);
    const { body } = await fill(quay, 8n);
    await t.wallet(bob).writeContract({
      address: t.market,
      abi: easelMarketAbi,
      functionName: "fillSignedListing",
      args: [chainOrder(body.data.order), body.data.signature],
      value: BigInt(body.data.order.price),
      chain: t.chain,
      account: bob,
    });
    await t.test.mine({ blocks: 1 });
    await index();
    expect((await rowOf(sold.id))?.status).toBe("filled");
  });
});

describe("a market lock changes nothing in the book", () => {
  it("keeps the order shown and active; /fill says the market is locked; the worker leaves it alone", async () => {
    const listing = await list(quay, 9n);
    await d.market(admin, "setMarketLocked", [true]);
    try {
      expectError(await fill(quay, 9n), 403, { code: "market_locked" });
      expect(await rowOf(listing.id)).toEqual({ status: "active", paused_reason: null });
      await index();
      await dueNow();
      expect((await recheck()).locked).toBe(true);
      expect(await rowOf(listing.id)).toEqual({ status: "active", paused_reason: null });
      expect(await tokenRow(quay, 9n)).toMatchObject({ status: "fix", price: PRICE.toString() });
    } finally {
      await d.market(admin, "setMarketLocked", [false]);
    }
    expect((await fill(quay, 9n)).status).toBe(200);
  });
});

describe("an entrance lock changes nothing in the book either", () => {
  it("/fill and a new order say the market is locked; the order stays shown and active; the worker leaves it alone", async () => {
    const listing = await list(quay, 14n);
    await d.market(admin, "setEntranceLocked", [true]);
    try {
      expectError(await fill(quay, 14n), 403, { code: "market_locked" });
      expect(await rowOf(listing.id)).toEqual({ status: "active", paused_reason: null });
      // Signing another is refused in the same words, and hides nothing.
      const order = await orderFor(artist.address, quay, 14n, { price: CHEAP.toString() });
      const posted = await api.call("POST", "/api/signed-listings", {
        user: users.artist,
        body: { order, signature: await sign(artist, order) },
      });
      expectError(posted, 403, { code: "market_locked" });
      await index();
      await dueNow();
      expect((await recheck()).locked).toBe(true);
      expect(await rowOf(listing.id)).toEqual({ status: "active", paused_reason: null });
      expect(await tokenRow(quay, 14n)).toMatchObject({ status: "fix", price: PRICE.toString() });
      expect(await forSale(quay)).toContain("14");
    } finally {
      await d.market(admin, "setEntranceLocked", [false]);
    }
    await index();
    const res = await fill(quay, 14n);
    expect(res.status).toBe(200);
    expect(res.body.data.id).toBe(listing.id);
  });
});

describe("a fee above an order's maxFeeBps pauses it until the fee comes down", () => {
  const setFees = (primary: number, secondary: number) => d.market(admin, "setFees", [primary, secondary]);

  it("off browse (still on Manage) while the fee is above it, back when the fee comes down", async () => {
    // Accepts the primary commission as it is (10%).
    const accepting = await list(quay, 16n);
    let low: Listing | undefined;
    try {
      await setFees(500, 0);
      await index();
      // Signed while the commission was 5%: accepts no more.
      low = await list(quay, 15n, { maxFeeBps: 500 });
      expect(await forSale(quay)).toEqual(expect.arrayContaining(["15", "16"]));
      await setFees(1_500, 1_000);
      await index();
      // Above both fees: paused in the fee's batch, before anyone asks /fill.
      expect(await rowOf(low.id)).toEqual({ status: "paused", paused_reason: "fee" });
      // Above only one (which one its token's next sale pays is the chain's to say): the worker asks at once.
      expect(await rowOf(accepting.id)).toEqual({ status: "active", paused_reason: null });
      const due = await q<{ due: boolean }>(
        "SELECT recheck_at <= now() AS due FROM signed_listings WHERE id = $1",
        [accepting.id],
      );
      expect(due[0]?.due).toBe(true);
      await recheck();
      expect(await rowOf(accepting.id)).toEqual({ status: "paused", paused_reason: "fee" });
      const shown = await forSale(quay);
      expect(shown).not.toContain("15");
      expect(shown).not.toContain("16");
      expect((await tokenRow(quay, 16n))?.status).toBe("minted");
      expectError(await fill(quay, 16n), 404);
      const manage = await mine(users.artist);
      expect(manage.find((l) => l.id === accepting.id)).toMatchObject({
        status: "paused",
        pausedReason: "fee",
      });
      expect(manage.find((l) => l.id === low?.id)).toMatchObject({ status: "paused", pausedReason: "fee" });
      // An order signed for less than the fee now is refused: sign it again (nothing is hidden).
      const order = await orderFor(artist.address, quay, 16n);
      const posted = await api.call("POST", "/api/signed-listings", {
        user: users.artist,
        body: { order, signature: await sign(artist, order) },
      });
      expectError(posted, 409, { code: "fee_above_max" });
      expect(await rowOf(accepting.id)).toEqual({ status: "paused", paused_reason: "fee" });
    } finally {
      await setFees(1_000, 0);
    }
    // The fee comes down to 10%: the indexer asks for a recheck, which brings back the order accepting it.
    await index();
    await recheck();
    expect(await rowOf(accepting.id)).toEqual({ status: "active", paused_reason: null });
    expect(await tokenRow(quay, 16n)).toMatchObject({ status: "fix", price: PRICE.toString() });
    const res = await fill(quay, 16n);
    expect(res.status).toBe(200);
    expect(res.body.data.id).toBe(accepting.id);
    // 10% is still above 5%: that one stays paused.
    expect(await rowOf(low?.id as string)).toEqual({ status: "paused", paused_reason: "fee" });
    expect(await forSale(quay)).not.toContain("15");
  });
});

describe("listings the chain refuses leave browse and the floor at once (item 6)", () => {
  it("a seller's cheap orders leave the floor in the batch that indexes ApprovalForAll(market, false), and come back after re-approval", async () => {
    // Pier's floor: alice's cheap orders on tokens 2 and 3.
    const cheap = await list(pier, 2n, { price: CHEAP.toString() }, alice, users.alice);
    const other = await list(pier, 3n, { price: CHEAP.toString() }, alice, users.alice);
    expect(await floorOf(pier)).toBe(CHEAP.toString());
    expect(await forSale(pier)).toEqual(["2", "3"]);
    await setApprovalForAll(alice, pier, false);
    // No /fill asked: the indexer alone takes them off in the approval's batch.
    await index();
    expect(await floorOf(pier)).toBeNull();
    expect(await forSale(pier)).toEqual([]);
    for (const id of [cheap.id, other.id])
      expect(await rowOf(id)).toEqual({ status: "paused", paused_reason: "notApproved" });
    // Still on Manage, said plainly.
    const manage = await mine(users.alice);
    expect(manage.filter((l) => l.status === "paused").map((l) => l.id)).toEqual(
      expect.arrayContaining([cheap.id, other.id]),
    );
    // Re-approval: the indexer asks the worker to recheck them now, and they are back.
    await setApprovalForAll(alice, pier, true);
    await index();
    const due = await q<{ due: boolean }>(
      "SELECT recheck_at <= now() AS due FROM signed_listings WHERE id = ANY($1::uuid[])",
      [[cheap.id, other.id]],
    );
    expect(due.every((r) => r.due)).toBe(true);
    await recheck();
    expect(await floorOf(pier)).toBe(CHEAP.toString());
    expect(await forSale(pier)).toEqual(["2", "3"]);
  });

  it("a recheck that found an order live does not bring it back over a later withdrawal of the approval", async () => {
    const listing = await list(quay, 13n);
    await setApprovalForAll(artist, quay, false);
    await index();
    expect((await rowOf(listing.id))?.status).toBe("paused");
    // The worker reads the chain between the approval given back and withdrawn again, and writes its verdict
    // only after the indexer has seen both.
    await setApprovalForAll(artist, quay, true);
    const seenLive = await t.publicClient.getBlockNumber();
    await setApprovalForAll(artist, quay, false);
    await index();
    const applied = await withProjectionLock(scratch.db.$client, (client) =>
      applyVerdict(client, listing.id, "paused", { kind: "live" }, seenLive),
    );
    expect(applied).toBe(false);
    expect((await rowOf(listing.id))?.status).toBe("paused");
    expect((await tokenRow(quay, 13n))?.status).toBe("minted");
    await setApprovalForAll(artist, quay, true);
    await index();
    await recheck();
    expect((await rowOf(listing.id))?.status).toBe("active");
  });

  it("an approval for another account on one token pauses its order only until the recheck finds the market still approved for all", async () => {
    const listing = await list(quay, 10n);
    await d.collection(artist, quay, "approve", [carol.address, 10n]);
    await index();
    expect((await rowOf(listing.id))?.status).toBe("paused");
    await recheck();
    expect((await rowOf(listing.id))?.status).toBe("active");
    expect((await tokenRow(quay, 10n))?.status).toBe("fix");
  });

  it("a raised listing minimum takes cheaper orders off the floor, a lowered one brings them back", async () => {
    const cheap = await list(quay, 11n, { price: CHEAP.toString() });
    expect(await floorOf(quay)).toBe(CHEAP.toString());
    const minimums = await t.publicClient.readContract({
      address: t.market,
      abi: easelMarketAbi,
      functionName: "minimums",
    });
    const args = (listing: bigint) => [
      listing,
      minimums.offer,
      minimums.lazyMint,
      minimums.standardAuction,
      minimums.reserveAuction,
    ];
    await d.market(admin, "setMinimums", args(parseEther("0.2")));
    try {
      await index();
      expect(await rowOf(cheap.id)).toEqual({ status: "paused", paused_reason: "priceMin" });
      expect(await floorOf(quay)).toBe(PRICE.toString());
    } finally {
      await d.market(admin, "setMinimums", args(minimums.listing));
    }
    await index();
    await recheck();
    expect((await rowOf(cheap.id))?.status).toBe("active");
    expect(await floorOf(quay)).toBe(CHEAP.toString());
  });

  it("rechecks a contract wallet's orders on a schedule: off the book when it says no, back when it says yes", async () => {
    const artifact = testWalletArtifact;
    const hash = await t.wallet(carol).deployContract({
      abi: artifact.abi,
      bytecode: artifact.bytecode,
      args: [carol.address],
      chain: t.chain,
      account: carol,
    });
    const wallet = (await t.publicClient.waitForTransactionReceipt({ hash })).contractAddress as Address;
    const act = (target: Address, data: Hex) => d.send(carol, wallet, artifact.abi, "act", [target, data]);
    await d.collection(artist, quay, "transferFrom", [artist.address, wallet, 12n]);
    await act(
      quay,
      encodeFunctionData({
        abi: easelCollectionAbi,
        functionName: "setApprovalForAll",
        args: [t.market, true],
      }),
    );
    await index();
    const walletUser = await api.signIn({
      address: wallet,
      signMessage: ({ message }: { message: string }) => carol.signMessage({ message }),
    } as never);
    const listing = await list(quay, 12n, {}, { ...carol, address: wallet } as Account, walletUser, carol);
    const [scheduled] = await q<{ contract_seller: boolean; within: boolean }>(
      `SELECT contract_seller, recheck_at <= now() + interval '1 minute' AS within
       FROM signed_listings WHERE id = $1`,
      [listing.id],
    );
    expect(scheduled).toEqual({ contract_seller: true, within: true });
    // An order stored before contract wallets were told apart (the migration makes every active order due):
    // the worker's first recheck finds the wallet's code and puts the order on the schedule.
    await q("UPDATE signed_listings SET contract_seller = false, recheck_at = now() WHERE id = $1", [
      listing.id,
    ]);
    await recheck();
    const [migrated] = await q<{ contract_seller: boolean; within: boolean }>(
      `SELECT contract_seller, recheck_at <= now() + interval '1 minute' AS within
       FROM signed_listings WHERE id = $1`,
      [listing.id],
    );
    expect(migrated).toEqual({ contract_seller: true, within: true });
    // The wallet stops accepting the signature: no event says so; the scheduled recheck does.
    await act(wallet, encodeFunctionData({ abi: artifact.abi, functionName: "setAnswer", args: [1] }));
    await dueNow();
    await recheck();
    expect(await rowOf(listing.id)).toEqual({ status: "paused", paused_reason: "signature" });
    expect((await tokenRow(quay, 12n))?.status).toBe("minted");
    expectError(await fill(quay, 12n), 404);
    expect((await mine(walletUser)).find((l) => l.id === listing.id)?.pausedReason).toBe("signature");
    await act(wallet, encodeFunctionData({ abi: artifact.abi, functionName: "setAnswer", args: [0] }));
    await dueNow();
    await recheck();
    expect((await rowOf(listing.id))?.status).toBe("active");
    expect((await fill(quay, 12n)).status).toBe(200);
  });
});

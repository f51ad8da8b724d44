import type { heldPaymentsResponseSchema, ItemResponse, SignedListingOrder } from "@easel/common";
import {
  easelCollectionAbi,
  easelMarketAbi,
  SIGNED_LISTING_DOMAIN,
  signedListingTypes,
  testWalletArtifact,
} from "@easel/contracts";
import { type Address, encodeFunctionData, type Hex, parseEther, parseEventLogs } from "viem";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { z } from "zod";
import { createChainClient } from "../src/chain/client.ts";
import { type Config, loadConfig } from "../src/config.ts";
import { type IndexerOptions, resetChainData } from "../src/indexer/indexer.ts";
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
import { SIGNED_LISTING_MESSAGES } from "../src/trading/listingIntake.ts";
import { chainOrder } from "../src/trading/signedListings.ts";
import { recheckSignedListings } from "../src/worker/signedListings.ts";
import { type AccountsApi, expectError, startAccountsApi, type TestUser } from "./accounts-helpers.ts";

type Account = typeof artist;
type HeldPaymentsResponse = z.infer<typeof heldPaymentsResponseSchema>;
type Listing = { id: string; order: SignedListingOrder; status: string; createdAt: string };

let t: TestChain;
let d: ReturnType<typeof driver>;
let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
let api: AccountsApi;
let config: Config;
let options: IndexerOptions;
let users: Record<"artist" | "alice" | "bob", TestUser>;
/** Harbour: tokens 1..17, the market approved. Dock: tokens 1..2, not approved. */
let art: Address;
let dock: Address;

const PRICE = parseEther("0.5");
/** Alice's order for token 5 signed before she bumped her counter (stale from then on). */
let staleOrder: SignedListingOrder;
let staleSignature: Hex;
const DAY = 86_400;
const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

const index = () => indexToHead(options);
const q = async <T = Record<string, unknown>>(text: string, values: unknown[] = []) =>
  (await scratch.db.$client.query(text, values)).rows as T[];

async function chainNow(): Promise<number> {
  const block = await t.publicClient.getBlock();
  return Number(block.timestamp);
}

/** An order for `tokenId` as the chain stands now (its transfer count, the seller's counter). */
async function orderFor(
  seller: Address,
  tokenId: bigint,
  change: Partial<SignedListingOrder> = {},
): Promise<SignedListingOrder> {
  const collection = (change.collection ?? art) as Address;
  const [transferCount, counter] = await Promise.all([
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
  ]);
  return {
    collection,
    tokenId: tokenId.toString(),
    price: PRICE.toString(),
    seller,
    transferCount: transferCount.toString(),
    counter: counter.toString(),
    expiresAt: String((await chainNow()) + 30 * DAY),
    // The primary commission: the highest fee the tests' first sales pay.
    maxFeeBps: 1_000,
    ...change,
  };
}

function sign(
  who: Account,
  order: SignedListingOrder,
  domain: { chainId?: number; verifyingContract?: Address } = {},
): Promise<Hex> {
  return who.signTypedData({
    domain: { ...SIGNED_LISTING_DOMAIN, chainId: 31337, verifyingContract: t.market, ...domain },
    types: signedListingTypes,
    primaryType: "SignedListing",
    message: chainOrder(order),
  });
}

const post = (user: TestUser, order: SignedListingOrder, signature: Hex) =>
  api.call<{ data: Listing }>("POST", "/api/signed-listings", { user, body: { order, signature } });

/** Signs and posts the artist's order for a Harbour token; expects it stored. */
async function list(
  tokenId: bigint,
  change: Partial<SignedListingOrder> = {},
  who = artist,
  user = users.artist,
) {
  const order = await orderFor(who.address, tokenId, change);
  const res = await post(user, order, await sign(who, order));
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

const fill = (tokenId: bigint, collection: Address = art) =>
  api.call<{ data: { id: string; order: SignedListingOrder; signature: Hex } }>(
    "GET",
    `/api/signed-listings/fill?collection=${collection}&tokenId=${tokenId}`,
  );

const statusOf = async (id: string) =>
  (await q<{ status: string }>("SELECT status FROM signed_listings WHERE id = $1", [id]))[0]?.status;

const tokenRow = async (tokenId: bigint, collection: Address = art) =>
  (
    await q<{ status: string; price: string | null; owner: string; listing_expires_at: Date | null }>(
      "SELECT status, price::text, owner, listing_expires_at FROM chain_tokens WHERE collection = $1 AND token_id = $2",
      [collection.toLowerCase(), tokenId.toString()],
    )
  )[0];

const floorOf = async (collection: Address = art) =>
  (
    await q<{ floor: string | null }>(
      "SELECT floor_price::text AS floor FROM chain_collections WHERE address = $1",
      [collection.toLowerCase()],
    )
  )[0]?.floor;

beforeAll(async () => {
  t = await startTestChain();
  scratch = await createScratchDatabase(inject("databaseUrl"), "signed");
  d = driver(t);
  await d.market(admin, "setArtistVerified", [artist.address, true]);
  art = await d.createCollection(artist, "Harbour", "HRB");
  for (let id = 1n; id <= 17n; id++) await d.mint(artist, art, id);
  await d.approve(artist, art);
  dock = await d.createCollection(artist, "Dock", "DCK");
  for (const id of [1n, 2n]) await d.mint(artist, dock, id);
  const env = t.env(scratch.url);
  config = loadConfig(env);
  options = indexerOptions(scratch.db, config, createChainClient(config.chainId, config.rpcUrls));
  await index();
  api = await startAccountsApi(env);
  users = {
    artist: await api.signIn(artist as never),
    alice: await api.signIn(alice as never),
    bob: await api.signIn(bob as never),
  };
}, 180_000);

afterAll(async () => {
  await api?.close();
  await scratch?.drop();
  await t?.stop();
});

describe("posting a signed listing", () => {
  it("stores a live order and shows it wherever a listing shows: token row, floor, item page, fill", async () => {
    const listing = await list(1n);
    expect(listing.status).toBe("active");
    expect(listing.order.collection).toBe(art.toLowerCase());
    const row = await tokenRow(1n);
    expect(row).toMatchObject({ status: "fix", price: PRICE.toString() });
    expect(row?.listing_expires_at?.getTime()).toBe(Number(listing.order.expiresAt) * 1000);
    expect(await floorOf()).toBe(PRICE.toString());
    // Buy now in explore (sorted by price) reads the token row: the signed listing is there.
    const explore = await api.call<{
      data: { nfts: { tokenId: string; status: string; priceWei: string | null }[] };
    }>("GET", `/api/explore?status=buyNow&sort=priceLowToHigh&collection=${art.toLowerCase()}`);
    expect(explore.status, JSON.stringify(explore.body)).toBe(200);
    expect(explore.body.data.nfts.map((n) => [n.tokenId, n.status, n.priceWei])).toEqual([
      ["1", "fix", PRICE.toString()],
    ]);
    const item = await api.call<ItemResponse>(
      "GET",
      `/api/nft?creator=${artist.address}&collection=Harbour&tokenId=1`,
    );
    expect(item.status).toBe(200);
    expect(item.body.data.nft.listing).toMatchObject({
      kind: "signed",
      signedId: listing.id,
      priceWei: PRICE.toString(),
      seller: artist.address.toLowerCase(),
    });
    expect(item.body.data.nft.status).toBe("fix");
    const res = await fill(1n);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: listing.id, order: listing.order });
  });

  it("replaces the seller's previous order for the token in the book (the old one is hidden)", async () => {
    const first = await list(2n, { price: parseEther("2").toString() });
    const second = await list(2n, { price: parseEther("1").toString() });
    expect(await statusOf(first.id)).toBe("hidden");
    expect(await statusOf(second.id)).toBe("active");
    expect((await tokenRow(2n))?.price).toBe(parseEther("1").toString());
    // The lower order is the floor; the first order (0.5) is lower still.
    expect(await floorOf()).toBe(PRICE.toString());
  });

  it("keeps one row per signature: the same order posted twice, or again after it was hidden", async () => {
    const order = await orderFor(artist.address, 3n, { price: parseEther("3").toString() });
    const signature = await sign(artist, order);
    const first = await post(users.artist, order, signature);
    const twice = await post(users.artist, order, signature);
    expect(first.status).toBe(201);
    expect(twice.status).toBe(201);
    expect(twice.body.data.id).toBe(first.body.data.id);
    const other = await list(3n, { price: parseEther("4").toString() });
    expect(await statusOf(first.body.data.id)).toBe("hidden");
    // Posted again, the hidden order is the token's listing once more, and the newer one is hidden.
    const shown = await post(users.artist, order, signature);
    expect(shown.body.data.id).toBe(first.body.data.id);
    expect(await statusOf(first.body.data.id)).toBe("active");
    expect(await statusOf(other.id)).toBe("hidden");
    expect((await tokenRow(3n))?.price).toBe(parseEther("3").toString());
    const rows = await scratch.db.$client.query(
      "SELECT count(*)::int AS n FROM signed_listings WHERE signature = $1",
      [signature],
    );
    expect(rows.rows[0].n).toBe(1);
  });

  it("refuses a signature that is not the seller's", async () => {
    const order = await orderFor(artist.address, 3n);
    expectError(await post(users.artist, order, await sign(bob, order)), 400, {
      code: "invalid_signature",
      message: "This listing's signature is not the seller's.",
    });
  });

  it("refuses a signature made for another chain, another market or another collection", async () => {
    const order = await orderFor(artist.address, 3n);
    expectError(await post(users.artist, order, await sign(artist, order, { chainId: 1 })), 400, {
      code: "invalid_signature",
    });
    expectError(
      await post(users.artist, order, await sign(artist, order, { verifyingContract: t.factory })),
      400,
      {
        code: "invalid_signature",
      },
    );
    // Signed for Dock's token 1, sent as Harbour's token 1 (the artist owns both).
    const dockOrder = await orderFor(artist.address, 1n, { collection: dock });
    const onHarbour = { ...dockOrder, collection: art.toLowerCase() };
    expectError(await post(users.artist, onHarbour, await sign(artist, dockOrder)), 400, {
      code: "invalid_signature",
    });
  });

  it("refuses the malleable (high-s) twin of a valid signature", async () => {
    const order = await orderFor(artist.address, 3n);
    const good = await sign(artist, order);
    const s = BigInt(`0x${good.slice(66, 130)}`);
    const v = Number.parseInt(good.slice(130, 132), 16);
    const twin =
      `${good.slice(0, 66)}${(SECP256K1_N - s).toString(16).padStart(64, "0")}${(v === 27 ? 28 : 27).toString(16)}` as Hex;
    expectError(await post(users.artist, order, twin), 400, { code: "invalid_signature" });
    // The canonical one is accepted.
    expect((await post(users.artist, order, good)).status).toBe(201);
  });

  it("refuses an order whose seller is not the signed-in wallet, and a seller who does not own the token", async () => {
    const order = await orderFor(artist.address, 4n);
    expectError(await post(users.alice, order, await sign(artist, order)), 403, { code: "not_seller" });
    const aliceOrder = await orderFor(alice.address, 4n);
    expectError(await post(users.alice, aliceOrder, await sign(alice, aliceOrder)), 403, {
      code: "not_owner",
      message: "Only the owner of this item can list it.",
    });
    const anonymous = await api.call("POST", "/api/signed-listings", {
      body: { order, signature: await sign(artist, order) },
    });
    expect(anonymous.status).toBe(401);
  });

  it("refuses a token the market is not approved for", async () => {
    const order = await orderFor(artist.address, 2n, { collection: dock });
    expectError(await post(users.artist, order, await sign(artist, order)), 409, {
      code: "not_approved",
      message: "Easel's market is not approved to transfer this item yet.",
    });
  });

  it("refuses a price below the listing minimum, and one above the largest price", async () => {
    const minimums = (await t.publicClient.readContract({
      address: t.market,
      abi: easelMarketAbi,
      functionName: "minimums",
    })) as { listing: bigint };
    expect(minimums.listing).toBeGreaterThan(0n);
    const order = await orderFor(artist.address, 4n, { price: (minimums.listing - 1n).toString() });
    expectError(await post(users.artist, order, await sign(artist, order)), 400, {
      code: "price_too_low",
      field: "price",
      message: /^Price must be at least /,
    });
    const huge = await orderFor(artist.address, 4n, { price: (10n ** 40n).toString() });
    expectError(await post(users.artist, huge, await sign(artist, huge)), 400, { code: "price_too_high" });
  });

  it("refuses an expiry over 100 days away or already past", async () => {
    const now = await chainNow();
    const far = await orderFor(artist.address, 4n, { expiresAt: String(now + 101 * DAY) });
    expectError(await post(users.artist, far, await sign(artist, far)), 400, {
      code: "expiry_too_far",
      message: "A listing can last at most 100 days.",
    });
    const past = await orderFor(artist.address, 4n, { expiresAt: String(now - 10) });
    expectError(await post(users.artist, past, await sign(artist, past)), 400, {
      code: "expired",
      message: "This listing has expired.",
    });
  });

  it("refuses an order naming a counter the seller bumped before posting", async () => {
    const order = await orderFor(alice.address, 5n);
    // Alice owns token 5 from now on, approves the market, and bumps her counter after signing.
    await d.send(artist, art, easelCollectionAbi, "transferFrom", [artist.address, alice.address, 5n]);
    await d.approve(alice, art);
    staleOrder = await orderFor(alice.address, 5n, { price: parseEther("0.1").toString() });
    staleSignature = await sign(alice, staleOrder);
    await d.market(alice, "incrementListingCounter", []);
    await index();
    expectError(await post(users.alice, staleOrder, staleSignature), 409, { code: "counter_incremented" });
    expect(order.counter).toBe("0");
    // Signed again with the new counter, it is accepted.
    await list(5n, {}, alice, users.alice);
  });

  it("refuses a token in an auction and one already listed on chain", async () => {
    await d.market(artist, "setStandardAuction", [art, 6n, parseEther("1"), 0n, 3600n]);
    await d.market(artist, "setSellOrder", [art, 7n, parseEther("1")]);
    await index();
    const auctioned = await orderFor(artist.address, 6n);
    expectError(await post(users.artist, auctioned, await sign(artist, auctioned)), 409, {
      code: "in_auction",
    });
    const listed = await orderFor(artist.address, 7n);
    expectError(await post(users.artist, listed, await sign(artist, listed)), 409, {
      code: "listed_on_chain",
    });
  });

  it("says a token is in an auction when the chain finds its order void for that, before the auction is indexed", async () => {
    const order = await orderFor(artist.address, 17n);
    const signature = await sign(artist, order);
    await d.market(artist, "setStandardAuction", [art, 17n, parseEther("1"), 0n, 3600n]);
    // The book does not know of the auction yet (its own check passes); the chain calls the order void: the
    // auction's lock, the token still the seller's.
    expect((await tokenRow(17n))?.status).toBe("minted");
    expectError(await post(users.artist, order, signature), 409, {
      code: "in_auction",
      message: SIGNED_LISTING_MESSAGES.inAuction,
    });
    await index();
    expect(await tokenRow(17n)).toMatchObject({ status: "auction", owner: artist.address.toLowerCase() });
    expectError(await post(users.artist, order, signature), 409, {
      code: "in_auction",
      message: SIGNED_LISTING_MESSAGES.inAuction,
    });
    expect(
      await q("SELECT 1 FROM signed_listings WHERE collection = $1 AND token_id = 17", [art.toLowerCase()]),
    ).toEqual([]);
  });

  it("answers bad input with a 400, never a 500", async () => {
    const order = await orderFor(artist.address, 4n);
    const res = await api.call("POST", "/api/signed-listings", {
      user: users.artist,
      body: { order: { ...order, price: "-1" }, signature: "0x12" },
    });
    expect(res.status).toBe(400);
    const badSig = await post(users.artist, order, "0x1234");
    expectError(badSig, 400, { code: "invalid_signature" });
    expectError(await post(users.artist, order, "0x123"), 400, { code: "invalid_signature" });
    const overflow = { ...order, counter: (2n ** 256n).toString() };
    expectError(await post(users.artist, overflow, await sign(artist, order)), 400, { field: "counter" });
    expect((await api.call("GET", "/api/signed-listings/fill?collection=nope&tokenId=1")).status).toBe(400);
  });
});

describe("hiding and listing one's orders", () => {
  it("hides an order for its seller only, at once, and lists the seller's orders with the counter", async () => {
    const listing = await list(8n);
    expect((await tokenRow(8n))?.status).toBe("fix");
    expectError(await api.call("DELETE", `/api/signed-listings/${listing.id}`, { user: users.bob }), 403, {
      message: "Only the seller can hide this listing.",
    });
    expect((await api.call("DELETE", `/api/signed-listings/${listing.id}`)).status).toBe(401);
    expectError(
      await api.call("DELETE", "/api/signed-listings/00000000-0000-4000-8000-000000000000", {
        user: users.bob,
      }),
      404,
    );
    const hidden = await api.call<{ data: Listing }>("DELETE", `/api/signed-listings/${listing.id}`, {
      user: users.artist,
    });
    expect(hidden.status).toBe(200);
    expect(hidden.body.data.status).toBe("hidden");
    expect(await tokenRow(8n)).toMatchObject({ status: "minted", price: null });
    expect((await fill(8n)).status).toBe(404);
    const mine = await api.call<{
      data: (Listing & { name: string; path: string | null })[];
      counter: string;
    }>("GET", "/api/signed-listings/mine", { user: users.artist });
    expect(mine.status).toBe(200);
    expect(mine.body.counter).toBe("0");
    const row = mine.body.data.find((l) => l.id === listing.id);
    expect(row).toMatchObject({ status: "hidden", name: "Harbour #8" });
    expect(row?.path).toMatch(/\/Harbour\/8$/);
    expect(mine.body.data.every((l) => l.order.seller === artist.address.toLowerCase())).toBe(true);
  });
});

describe("the fill endpoint rechecks on chain before a buyer signs", () => {
  it("retires an order whose token moved in the same second (not indexed yet) and answers 404", async () => {
    const listing = await list(9n);
    await d.send(artist, art, easelCollectionAbi, "transferFrom", [artist.address, carol.address, 9n]);
    expectError(await fill(9n), 404, { message: "This listing is no longer available." });
    expect(await statusOf(listing.id)).toBe("void");
    expect((await tokenRow(9n))?.status).toBe("minted");
    await index();
    expect(await statusOf(listing.id)).toBe("void");
  });

  it("retires an expired order", async () => {
    // The latest block's time lags the clock while no block is mined: the expiry is taken from the later.
    const now = Math.max(await chainNow(), Math.floor(Date.now() / 1000));
    const short = await list(4n, { expiresAt: String(now + 5) });
    expect((await fill(4n)).status).toBe(200);
    await d.increaseTime(60);
    expectError(await fill(4n), 404);
    expect(await statusOf(short.id)).toBe("expired");
    expect((await tokenRow(4n))?.status).toBe("minted");
  });

  it("skips a stale cheaper order (retiring it) and hands out the next live one", async () => {
    // Alice's order signed before her bump, as a book could hold it had the indexer missed the bump.
    const [live] = await q<{ id: string }>(
      "SELECT id FROM signed_listings WHERE seller = $1 AND token_id = 5 AND status = 'active'",
      [alice.address.toLowerCase()],
    );
    const [stale] = await q<{ id: string }>(
      `INSERT INTO signed_listings (collection, token_id, seller, price, transfer_count, counter, expires_at,
         signature, checked_block, created_at, max_fee_bps)
       VALUES ($1, 5, $2, $3, $4, $5, to_timestamp($6), $7, 0, now() - interval '1 hour', $8) RETURNING id`,
      [
        staleOrder.collection.toLowerCase(),
        alice.address.toLowerCase(),
        staleOrder.price,
        staleOrder.transferCount,
        staleOrder.counter,
        Number(staleOrder.expiresAt),
        staleSignature,
        staleOrder.maxFeeBps,
      ],
    );
    const res = await fill(5n);
    expect(res.status).toBe(200);
    expect(res.body.data.id).toBe(live?.id);
    expect(await statusOf(String(stale?.id))).toBe("bumped");
  });

  it("pauses (not retires) an order after a ban of the seller and after a block of the token", async () => {
    const banned = await list(10n, {}, artist);
    const blocked = await list(11n, {}, artist);
    await d.market(admin, "setTokenBlocked", [art, 11n, true]);
    expectError(await fill(11n), 404);
    expect(await statusOf(blocked.id)).toBe("paused");
    await d.market(admin, "setBanned", [artist.address, true]);
    expectError(await fill(10n), 404);
    expect(await statusOf(banned.id)).toBe("paused");
    // Nor can a banned seller post one (the chain refuses it; the words say why).
    await index();
    const order = await orderFor(artist.address, 10n);
    expectError(await post(users.artist, order, await sign(artist, order)), 403, {
      code: "banned",
      message: "This account is banned from trading on Easel.",
    });
    await d.market(admin, "setBanned", [artist.address, false]);
    await d.market(admin, "setTokenBlocked", [art, 11n, false]);
    await index();
    // Off the book until the worker's recheck finds them live again (the ban also paused the artist's others).
    expect((await tokenRow(10n))?.status).toBe("minted");
    await recheckSignedListings({ db: scratch.db, chain: options.chain, market: config.contracts.market });
    expect(await statusOf(banned.id)).toBe("active");
    expect(await statusOf(blocked.id)).toBe("active");
    expect((await tokenRow(10n))?.status).toBe("fix");
  });
});

describe("a real fill on chain", () => {
  it("fills the order the endpoint gave: the book says filled, the token row shows the buyer, the Sale exists", async () => {
    const listing = await list(12n);
    const { body } = await fill(12n);
    const hash = await t.wallet(bob).writeContract({
      address: t.market,
      abi: easelMarketAbi,
      functionName: "fillSignedListing",
      args: [chainOrder(body.data.order), body.data.signature],
      value: BigInt(body.data.order.price),
      chain: t.chain,
      account: bob,
    });
    const receipt = await t.publicClient.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe("success");
    await index();
    const [row] = await q<{ status: string; ended_tx: string }>(
      "SELECT status, ended_tx FROM signed_listings WHERE id = $1",
      [listing.id],
    );
    expect(row).toEqual({ status: "filled", ended_tx: hash });
    expect(await tokenRow(12n)).toMatchObject({
      status: "minted",
      price: null,
      owner: bob.address.toLowerCase(),
    });
    const sales = await q(
      "SELECT mechanism, price::text, buyer FROM chain_sales WHERE collection = $1 AND token_id = 12",
      [art.toLowerCase()],
    );
    expect(sales).toEqual([
      { mechanism: "signed-listing", price: PRICE.toString(), buyer: bob.address.toLowerCase() },
    ]);
    expectError(await fill(12n), 404);
  });
});

describe("retirement by the indexer", () => {
  it("marks an order cancelled on SignedListingCancelled and hidden when the token is listed on chain", async () => {
    const cancelled = await list(13n);
    await d.market(artist, "cancelSignedListing", [art, 13n]);
    const hidden = await list(14n);
    await d.market(artist, "setSellOrder", [art, 14n, parseEther("3")]);
    await index();
    expect(await statusOf(cancelled.id)).toBe("cancelled");
    expect((await tokenRow(13n))?.status).toBe("minted");
    expect(await statusOf(hidden.id)).toBe("hidden");
    expect(await tokenRow(14n)).toMatchObject({ status: "fix", price: parseEther("3").toString() });
    expectError(await fill(13n), 404);
  });

  it("voids orders of a token put in an auction, which stays with its seller; a cancellation frees it, a settlement is one sale", async () => {
    const artistAddress = artist.address.toLowerCase();
    const holderOf = async (tokenId: bigint) =>
      (
        await q<{ holder: string }>(
          "SELECT holder FROM chain_tokens WHERE collection = $1 AND token_id = $2",
          [art.toLowerCase(), tokenId.toString()],
        )
      )[0]?.holder;
    const ownerOnChain = async (tokenId: bigint) =>
      (
        await t.publicClient.readContract({
          address: art,
          abi: easelCollectionAbi,
          functionName: "ownerOf",
          args: [tokenId],
        })
      ).toLowerCase();
    // The auction logs no Transfer: its lock counts as one, which voids the order signed before it.
    const listing = await list(15n);
    const created = await d.market(artist, "setStandardAuction", [art, 15n, parseEther("1"), 0n, 3600n]);
    expect(parseEventLogs({ abi: easelCollectionAbi, logs: created.logs, eventName: "Transfer" })).toEqual(
      [],
    );
    await index();
    expect(await statusOf(listing.id)).toBe("void");
    expect(await tokenRow(15n)).toMatchObject({ status: "auction", owner: artistAddress });
    expect(await holderOf(15n)).toBe(artistAddress);
    expect(await ownerOnChain(15n)).toBe(artistAddress);
    expectError(await fill(15n), 404);

    // An order signed during the auction (naming the count the lock left) is void once it is cancelled: the
    // release counts as a transfer too. The token never moved.
    const during = await orderFor(artist.address, 15n);
    const duringSignature = await sign(artist, during);
    const cancelled = await d.market(artist, "invalidateAuction", [art, 15n]);
    expect(parseEventLogs({ abi: easelCollectionAbi, logs: cancelled.logs, eventName: "Transfer" })).toEqual(
      [],
    );
    await index();
    expect(await tokenRow(15n)).toMatchObject({ status: "minted", price: null, owner: artistAddress });
    expect(await holderOf(15n)).toBe(artistAddress);
    expect(await ownerOnChain(15n)).toBe(artistAddress);
    expectError(await post(users.artist, during, duringSignature), 409, { code: "void" });

    // Listed again, then a second auction, bid on and settled by a third party: the order is void, the
    // token goes from its seller to the winner, shown as one sale (its transfer is not an activity of its own).
    const again = await list(15n);
    expect((await tokenRow(15n))?.status).toBe("fix");
    await d.market(artist, "setStandardAuction", [art, 15n, parseEther("1"), 0n, 3600n]);
    await d.market(bob, "placeBid", [art, 15n, parseEther("1")], parseEther("1"));
    await d.increaseTime(3_700);
    const settled = await d.market(carol, "completeAuction", [art, 15n]);
    const moved = parseEventLogs({ abi: easelCollectionAbi, logs: settled.logs, eventName: "Transfer" });
    expect(moved.map((l) => [l.args.from.toLowerCase(), l.args.to.toLowerCase()])).toEqual([
      [artistAddress, bob.address.toLowerCase()],
    ]);
    await index();
    expect(await statusOf(again.id)).toBe("void");
    expect(await tokenRow(15n)).toMatchObject({
      status: "minted",
      price: null,
      owner: bob.address.toLowerCase(),
    });
    expect(await holderOf(15n)).toBe(bob.address.toLowerCase());
    const activity = await q<{ kind: string; from: string; to: string | null }>(
      `SELECT kind, "from", "to" FROM chain_activity WHERE collection = $1 AND token_id = 15
       ORDER BY block_number, log_index, seq`,
      [art.toLowerCase()],
    );
    expect(activity.map((a) => a.kind)).toEqual([
      "mint",
      "auction",
      "auction_cancelled",
      "auction",
      "bid",
      "sale",
    ]);
    expect(activity.at(-1)).toMatchObject({ from: artistAddress, to: bob.address.toLowerCase() });
    const sales = await q(
      "SELECT mechanism, seller, buyer FROM chain_sales WHERE collection = $1 AND token_id = 15",
      [art.toLowerCase()],
    );
    expect(sales).toEqual([
      { mechanism: "auction", seller: artistAddress, buyer: bob.address.toLowerCase() },
    ]);
    const told = await q<{ address: string; kind: string }>(
      "SELECT address, kind FROM notifications WHERE data->>'tx' = $1 ORDER BY kind",
      [settled.transactionHash],
    );
    expect(told).toEqual([
      { address: bob.address.toLowerCase(), kind: "auction_won" },
      { address: artistAddress, kind: "sale" },
    ]);
    const [auctions] = await q<{ statuses: string[] }>(
      `SELECT array_agg(status ORDER BY created_block) AS statuses FROM chain_auctions
       WHERE collection = $1 AND token_id = 15`,
      [art.toLowerCase()],
    );
    expect(auctions?.statuses).toEqual(["cancelled", "completed"]);
  });

  it("keeps a listing posted while an indexer batch that rewrites the token row is running", async () => {
    // Alice's offer on token 16 makes the next batch load and write the token row whole; the API's order is
    // posted while that batch holds its transaction open.
    await d.market(
      alice,
      "makeOffer",
      [art, 16n, parseEther("0.2"), await d.offerExpiry()],
      parseEther("0.2"),
    );
    const order = await orderFor(artist.address, 16n);
    const signature = await sign(artist, order);
    let posted: Promise<Awaited<ReturnType<typeof post>>> | null = null;
    let settledDuringBatch = false;
    await indexToHead({
      ...options,
      applyLogs: async (_tx, logs) => {
        if (logs.length === 0 || posted) return;
        posted = post(users.artist, order, signature);
        posted.then(() => {
          settledDuringBatch = true;
        });
        await new Promise((resolve) => setTimeout(resolve, 1500));
      },
    });
    expect(posted).not.toBeNull();
    expect(settledDuringBatch).toBe(false);
    const res = await (posted as unknown as Promise<Awaited<ReturnType<typeof post>>>);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const [row] = await q<{ status: string; price: string; offer: string }>(
      "SELECT status, price::text, offer::text FROM chain_tokens WHERE collection = $1 AND token_id = 16",
      [art.toLowerCase()],
    );
    expect(row).toEqual({ status: "fix", price: PRICE.toString(), offer: parseEther("0.2").toString() });
  });

  it("ends with the same book and token rows after a resync from the deployment block", async () => {
    const state = async () => ({
      book: await q("SELECT id, status, ended_tx FROM signed_listings ORDER BY id"),
      tokens: await q(
        `SELECT collection, token_id::text, status, price::text, listing_expires_at, listed_at, owner
         FROM chain_tokens ORDER BY collection, token_id`,
      ),
      floors: await q("SELECT address, floor_price::text FROM chain_collections ORDER BY address"),
    });
    const before = await state();
    expect(before.tokens).toContainEqual(
      expect.objectContaining({
        collection: art.toLowerCase(),
        token_id: "16",
        status: "fix",
        price: PRICE.toString(),
      }),
    );
    // Every event is read and applied again: none of them may retire an order checked live after it.
    await resetChainData(scratch.db.$client);
    await index();
    expect(await state()).toEqual(before);
  });

  it("after a reorg drops the transfer that voided an order, the token row shows no listing the book lacks", async () => {
    const [order] = await q<{ id: string }>(
      "SELECT id FROM signed_listings WHERE collection = $1 AND token_id = 3 AND status = 'active'",
      [art.toLowerCase()],
    );
    expect(order).toBeDefined();
    const snapshot = await t.test.snapshot();
    await d.send(artist, art, easelCollectionAbi, "transferFrom", [artist.address, carol.address, 3n]);
    await index();
    expect(await statusOf(String(order?.id))).toBe("void");
    const dropped = await t.publicClient.getBlockNumber({ cacheTime: 0 });
    await t.test.revert({ id: snapshot });
    await t.test.mine({ blocks: 3 });
    expect(await t.publicClient.getBlockNumber({ cacheTime: 0 })).toBeGreaterThan(dropped);
    await index();
    // The undo brought back the row as it was (listed through the order); the order stays void (the book is not
    // rebuilt from events: the seller signs again), so the row shows no listing.
    expect(await statusOf(String(order?.id))).toBe("void");
    expect(await tokenRow(3n)).toMatchObject({
      owner: artist.address.toLowerCase(),
      status: "minted",
      price: null,
      listing_expires_at: null,
    });
  });

  it("marks every order of the seller bumped on ListingCounterIncremented, and the floor follows", async () => {
    // Alice hides hers: the floor is then the artist's orders (0.5), and after the bump token 7's 1 ETH.
    for (const { id } of await q<{ id: string }>(
      "SELECT id FROM signed_listings WHERE seller = $1 AND status = 'active'",
      [alice.address.toLowerCase()],
    ))
      expect((await api.call("DELETE", `/api/signed-listings/${id}`, { user: users.alice })).status).toBe(
        200,
      );
    expect(await floorOf()).toBe(PRICE.toString());
    const before = await q<{ id: string }>(
      "SELECT id FROM signed_listings WHERE seller = $1 AND status = 'active'",
      [artist.address.toLowerCase()],
    );
    expect(before.length).toBeGreaterThan(0);
    await d.market(artist, "incrementListingCounter", []);
    await index();
    for (const { id } of before) expect(await statusOf(id)).toBe("bumped");
    expect((await tokenRow(1n))?.status).toBe("minted");
    // Left: the on-chain listings of token 7 (1 ETH) and token 14 (3 ETH).
    expect(await floorOf()).toBe(parseEther("1").toString());
    expectError(await fill(1n), 404);
  });
});

describe("a smart-contract wallet seller (ERC-1271)", () => {
  it("lists through its owner's signature, and the order leaves the book (paused) when the wallet stops accepting it", async () => {
    const artifact = testWalletArtifact;
    const deployHash = await t.wallet(carol).deployContract({
      abi: artifact.abi,
      bytecode: artifact.bytecode,
      args: [carol.address],
      chain: t.chain,
      account: carol,
    });
    const wallet = (await t.publicClient.waitForTransactionReceipt({ hash: deployHash }))
      .contractAddress as Address;
    // Token 9 is carol's (moved above): she gives it to her wallet, which approves the market.
    await d.send(carol, art, easelCollectionAbi, "transferFrom", [carol.address, wallet, 9n]);
    const act = (target: Address, data: Hex) => d.send(carol, wallet, artifact.abi, "act", [target, data]);
    await act(
      art,
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
    expect(walletUser.address).toBe(wallet.toLowerCase());
    const order = await orderFor(wallet, 9n);
    const res = await post(walletUser, order, await sign(carol, order));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect((await fill(9n)).status).toBe(200);
    // A wrong ERC-1271 answer: the order never reaches a buyer.
    await act(wallet, encodeFunctionData({ abi: artifact.abi, functionName: "setAnswer", args: [1] }));
    expectError(await fill(9n), 404);
    expect(await statusOf(res.body.data.id)).toBe("paused");
  });
});

describe("held payments (moderators)", () => {
  it("is for moderators only and sums held, released and forfeited payments from the stored events", async () => {
    expect((await api.call("GET", "/api/admin/held", { user: users.bob })).status).toBe(403);
    // Bob resells token 12 while its creator is banned: the creator's royalty is held.
    await d.approve(bob, art);
    await d.market(bob, "setSellOrder", [art, 12n, parseEther("1")]);
    await d.market(admin, "setBanned", [artist.address, true]);
    const receipt = await d.market(alice, "buyNow", [art, 12n], parseEther("1"));
    const [sale] = parseEventLogs({ abi: easelMarketAbi, logs: receipt.logs, eventName: "Sale" });
    const royalty = (sale as { args: { royalty: bigint } }).args.royalty;
    expect(royalty).toBeGreaterThan(0n);
    await index();
    const moderator = await api.admin();
    const held = async () => {
      const res = await api.call<HeldPaymentsResponse>("GET", "/api/admin/held", { user: moderator });
      expect(res.status).toBe(200);
      return res.body;
    };
    let body = await held();
    expect(body.data).toEqual([
      expect.objectContaining({
        account: artist.address.toLowerCase(),
        // The payee with their profile's names, read with the row.
        person: expect.objectContaining({ address: artist.address.toLowerCase() }),
        heldWei: royalty.toString(),
        releasedWei: "0",
        forfeitedWei: "0",
        lastTx: receipt.transactionHash,
      }),
    ]);
    expect(body.totalHeldWei).toBe(royalty.toString());
    const forfeit = await d.market(admin, "forfeitHeld", [artist.address]);
    await index();
    body = await held();
    expect(body.data[0]).toMatchObject({
      heldWei: "0",
      forfeitedWei: royalty.toString(),
      lastTx: forfeit.transactionHash,
    });
    expect(body.totalHeldWei).toBe("0");
    await d.market(admin, "setBanned", [artist.address, false]);
  });
});

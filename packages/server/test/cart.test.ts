import type { CartQuote, CartQuoteLine, SignedListingOrder } from "@easel/common";
import {
  easelCollectionAbi,
  easelMarketAbi,
  SIGNED_LISTING_DOMAIN,
  signedListingTypes,
} from "@easel/contracts";
import { type Address, type Hex, parseEther, parseEventLogs } from "viem";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createChainClient } from "../src/chain/client.ts";
import { loadConfig } from "../src/config.ts";
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
import { chainOrder } from "../src/trading/signedListings.ts";
import { type AccountsApi, expectError, startAccountsApi, type TestUser } from "./accounts-helpers.ts";

type Account = typeof artist;
type Quote = { data: CartQuote };

let t: TestChain;
let d: ReturnType<typeof driver>;
let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
let api: AccountsApi;
let options: IndexerOptions;
let users: Record<"artist" | "alice" | "bob" | "carol", TestUser>;
/** Harbour: tokens 1..12 by the artist, the market approved. Token 3 is Alice's (bought, then listed by her). */
let art: Address;
/** Reef: tokens 1..8 by the artist, for the sweep. */
let reef: Address;

const DAY = 86_400;
const index = () => indexToHead(options);
const q = async <T = Record<string, unknown>>(text: string, values: unknown[] = []) =>
  (await scratch.db.$client.query(text, values)).rows as T[];

async function orderFor(seller: Address, collection: Address, tokenId: bigint, price: bigint) {
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
    price: price.toString(),
    seller: seller.toLowerCase(),
    transferCount: transferCount.toString(),
    counter: counter.toString(),
    expiresAt: String(Number(block.timestamp) + 30 * DAY),
    maxFeeBps: 1_000,
  } satisfies SignedListingOrder;
}

/** Signs and posts a signed listing through the API (checked on chain there). */
async function listSigned(who: Account, user: TestUser, collection: Address, tokenId: bigint, price: bigint) {
  const order = await orderFor(who.address, collection, tokenId, price);
  const signature: Hex = await who.signTypedData({
    domain: { ...SIGNED_LISTING_DOMAIN, chainId: 31337, verifyingContract: t.market },
    types: signedListingTypes,
    primaryType: "SignedListing",
    message: chainOrder(order),
  });
  const res = await api.call("POST", "/api/signed-listings", { user, body: { order, signature } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
}

const listOnChain = (who: Account, collection: Address, tokenId: bigint, price: bigint) =>
  d.market(who, "setSellOrder", [collection, tokenId, price]);

const quote = (items: { collection: string; tokenId: string }[], user?: TestUser) =>
  api.call<Quote>("POST", "/api/cart/quote", { user, body: { items } });

const sweep = (collection: Address, count: number, maxPriceWei?: bigint, user?: TestUser) =>
  api.call<Quote>(
    "GET",
    `/api/cart/sweep?collection=${collection}&count=${count}${maxPriceWei === undefined ? "" : `&maxPriceWei=${maxPriceWei}`}`,
    { user },
  );

const item = (collection: Address, tokenId: bigint) => ({ collection, tokenId: tokenId.toString() });

/** `buyMany` as the app sends it: the quote's listed and signed purchases, value = the total. */
async function buyMany(who: Account, lines: CartQuoteLine[], value: bigint) {
  const listed = lines.flatMap((l) =>
    l.listed
      ? [
          {
            collection: l.listed.collection as Address,
            tokenId: BigInt(l.listed.tokenId),
            price: BigInt(l.listed.price),
          },
        ]
      : [],
  );
  const signed = lines.flatMap((l) =>
    l.signed
      ? [
          {
            order: chainOrder(l.signed.order),
            signature: l.signed.signature as Hex,
            bulkIndex: BigInt(l.signed.bulkIndex),
            bulkProof: l.signed.bulkProof as Hex[],
          },
        ]
      : [],
  );
  const receipt = await d.market(who, "buyMany", [listed, signed, false], value);
  return {
    sales: parseEventLogs({ abi: easelMarketAbi, logs: receipt.logs, eventName: "Sale" }),
    skipped: parseEventLogs({ abi: easelMarketAbi, logs: receipt.logs, eventName: "PurchaseSkipped" }),
  };
}

beforeAll(async () => {
  t = await startTestChain();
  scratch = await createScratchDatabase(inject("databaseUrl"), "cart");
  d = driver(t);
  await d.market(admin, "setArtistVerified", [artist.address, true]);
  art = await d.createCollection(artist, "Harbour", "HRB");
  for (let id = 1n; id <= 12n; id++) await d.mint(artist, art, id);
  await d.approve(artist, art);
  reef = await d.createCollection(artist, "Reef", "REF");
  for (let id = 1n; id <= 8n; id++) await d.mint(artist, reef, id);
  await d.approve(artist, reef);
  // Alice buys token 3 and lists it herself: a second seller.
  await listOnChain(artist, art, 3n, parseEther("0.1"));
  await d.market(alice, "buyNow", [art, 3n], parseEther("0.1"));
  await d.approve(alice, art);
  const env = t.env(scratch.url);
  const config = loadConfig(env);
  options = indexerOptions(scratch.db, config, createChainClient(config.chainId, config.rpcUrls));
  await index();
  api = await startAccountsApi(env);
  users = {
    artist: await api.signIn(artist as never),
    alice: await api.signIn(alice as never),
    bob: await api.signIn(bob as never),
    carol: await api.signIn(carol as never),
  };
  await q("UPDATE profiles SET name = 'Carol' WHERE address = $1", [carol.address.toLowerCase()]);
}, 180_000);

afterAll(async () => {
  await api?.close();
  await scratch?.drop();
  await t?.stop();
});

describe("POST /api/cart/quote", () => {
  it("quotes on-chain and signed listings from two sellers, with the total, and the cart buys them in one transaction", async () => {
    await listOnChain(artist, art, 1n, parseEther("0.2"));
    await listSigned(artist, users.artist, art, 2n, parseEther("0.3"));
    await listOnChain(alice, art, 3n, parseEther("0.4"));
    await index();
    const res = await quote([item(art, 1n), item(art, 2n), item(art, 3n)], users.bob);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [one, two, three] = res.body.data.lines as [CartQuoteLine, CartQuoteLine, CartQuoteLine];
    expect(one).toMatchObject({
      tokenId: "1",
      priceWei: parseEther("0.2").toString(),
      unavailable: null,
      message: null,
      signed: null,
      listed: { collection: art.toLowerCase(), tokenId: "1", price: parseEther("0.2").toString() },
      seller: { address: artist.address.toLowerCase() },
      name: "Harbour #1",
    });
    expect(one.path).toMatch(/\/1$/);
    expect(two).toMatchObject({ tokenId: "2", priceWei: parseEther("0.3").toString(), listed: null });
    expect(two.signed).toMatchObject({
      order: { seller: artist.address.toLowerCase(), price: parseEther("0.3").toString() },
      bulkIndex: "0",
      bulkProof: [],
    });
    expect(three).toMatchObject({ tokenId: "3", seller: { address: alice.address.toLowerCase() } });
    expect(three.listed?.price).toBe(parseEther("0.4").toString());
    expect(res.body.data.totalWei).toBe(parseEther("0.9").toString());

    const { sales, skipped } = await buyMany(bob, res.body.data.lines, BigInt(res.body.data.totalWei));
    expect(skipped).toHaveLength(0);
    expect(sales.map((s) => s.args.tokenId)).toEqual(expect.arrayContaining([1n, 2n, 3n]));
    await index();
    // Bought: now Bob's own.
    const again = await quote([item(art, 1n), item(art, 2n)], users.bob);
    expect(again.body.data.lines.map((l) => l.unavailable)).toEqual(["own", "own"]);
    expect(again.body.data.totalWei).toBe("0");
  });

  it("says a work sold in between is sold, to whom (by their profile's name), and leaves it out of the total", async () => {
    await listOnChain(artist, art, 4n, parseEther("0.5"));
    await listSigned(artist, users.artist, art, 5n, parseEther("0.6"));
    await listOnChain(artist, art, 6n, parseEther("0.7"));
    await index();
    // Carol buys 4 and 5 before Bob checks out (not indexed yet: the chain decides).
    await d.market(carol, "buyNow", [art, 4n], parseEther("0.5"));
    const fill = await api.call<{ data: { order: SignedListingOrder; signature: Hex } }>(
      "GET",
      `/api/signed-listings/fill?collection=${art}&tokenId=5`,
    );
    await d.market(
      carol,
      "fillSignedListing",
      [chainOrder(fill.body.data.order), fill.body.data.signature],
      parseEther("0.6"),
    );
    const res = await quote([item(art, 4n), item(art, 5n), item(art, 6n)], users.bob);
    expect(res.status).toBe(200);
    const [four, five, six] = res.body.data.lines as [CartQuoteLine, CartQuoteLine, CartQuoteLine];
    for (const line of [four, five]) {
      expect(line).toMatchObject({
        unavailable: "sold",
        message: "Sold to Carol",
        soldTo: { address: carol.address.toLowerCase(), name: "Carol" },
        priceWei: null,
        listed: null,
        signed: null,
      });
    }
    expect(six.unavailable).toBeNull();
    expect(res.body.data.totalWei).toBe(parseEther("0.7").toString());
    // The signed order the fill used left the book on the way.
    await index();
    const [row] = await q<{ status: string }>(
      "SELECT status FROM signed_listings WHERE collection = $1 AND token_id = 5",
      [art.toLowerCase()],
    );
    expect(row?.status).not.toBe("active");
  });

  it("says an unlisted work is no longer for sale, and a caller's own work is theirs", async () => {
    await listOnChain(artist, art, 7n, parseEther("0.5"));
    await d.market(artist, "cancelSellOrder", [art, 7n]);
    await listOnChain(artist, art, 8n, parseEther("0.5"));
    const res = await quote([item(art, 7n), item(art, 8n), item(art, 99n)], users.bob);
    expect(res.body.data.lines.map((l) => [l.unavailable, l.message])).toEqual([
      ["unlisted", "No longer for sale"],
      [null, null],
      ["missing", "Item not found"],
    ]);
    const own = await quote([item(art, 8n)], users.artist);
    expect(own.body.data.lines[0]).toMatchObject({ unavailable: "own", message: "This is your own work" });
    // Signed out: no work reads as anyone's own.
    const anonymous = await quote([item(art, 8n)]);
    expect(anonymous.body.data.lines[0]?.unavailable).toBeNull();
  });

  it("refuses duplicates, an empty cart and more than 50 works, in words", async () => {
    const dup = await quote([item(art, 8n), { collection: art.toLowerCase(), tokenId: "08" }], users.bob);
    expectError(dup, 400, { field: "items.1", message: "A work can be in the cart only once." });
    expectError(await quote([], users.bob), 400, { message: "The cart is empty" });
    const many = Array.from({ length: 51 }, (_, i) => item(art, BigInt(i + 1)));
    expectError(await quote(many, users.bob), 400, { message: "A cart holds at most 50 works" });
    expectError(await quote([{ collection: "0x12", tokenId: "1" }], users.bob), 400);
  });
});

describe("GET /api/cart/sweep", () => {
  it("quotes the collection's cheapest works (on chain and signed) at or below the cap, cheapest first, not the caller's", async () => {
    const prices = [0.9, 0.3, 0.5, 0.1, 0.7, 0.2, 1.5];
    for (const [i, price] of prices.entries()) {
      const id = BigInt(i + 1);
      if (i % 2 === 0) await listOnChain(artist, reef, id, parseEther(String(price)));
      else await listSigned(artist, users.artist, reef, id, parseEther(String(price)));
    }
    await index();
    const three = await sweep(reef, 3, undefined, users.bob);
    expect(three.status, JSON.stringify(three.body)).toBe(200);
    expect(three.body.data.lines.map((l) => l.tokenId)).toEqual(["4", "6", "2"]);
    expect(three.body.data.totalWei).toBe(parseEther("0.6").toString());
    // The cap: nothing above 0.5 ETH, however many are asked.
    const capped = await sweep(reef, 20, parseEther("0.5"), users.bob);
    expect(capped.body.data.lines.map((l) => l.tokenId)).toEqual(["4", "6", "2", "3"]);
    expect(capped.body.data.lines.map((l) => (l.listed ? "listed" : "signed"))).toEqual([
      "signed",
      "signed",
      "signed",
      "listed",
    ]);
    // The seller's own works are left out.
    const own = await sweep(reef, 5, undefined, users.artist);
    expect(own.body.data.lines).toEqual([]);
    // A work bought since it was indexed is skipped; the next cheapest comes in.
    const fill = await api.call<{ data: { order: SignedListingOrder; signature: Hex } }>(
      "GET",
      `/api/signed-listings/fill?collection=${reef}&tokenId=4`,
    );
    await d.market(
      carol,
      "fillSignedListing",
      [chainOrder(fill.body.data.order), fill.body.data.signature],
      parseEther("0.1"),
    );
    const after = await sweep(reef, 3, undefined, users.bob);
    expect(after.body.data.lines.map((l) => l.tokenId)).toEqual(["6", "2", "3"]);
  });

  it("validates its query in words", async () => {
    expectError(await sweep(reef, 21), 400);
    expectError(await sweep(reef, 0), 400);
    const unknown = await sweep("0x000000000000000000000000000000000000dead", 3);
    expectError(unknown, 404, { message: "Collection not found" });
  });
});

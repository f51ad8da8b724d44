/**
 * Bulk listings (issue 51, "List several"): one signature over a tree of signed listings, posted to
 * `POST /api/signed-listings/bulk`, each order checked as a single one and on chain
 * (`bulkSignedListingStatus`), stored with its leaf, handed to buyers with its proof and retired one by one, on a
 * real anvil chain with Easel's contracts, a real PostgreSQL, the real indexer and the worker's recheck.
 */
import type { SignedListing, SignedListingOrder } from "@easel/common";
import {
  bulkListing,
  easelCollectionAbi,
  easelMarketAbi,
  packBulkSignature,
  SIGNED_LISTING_DOMAIN,
} from "@easel/contracts";
import { type Address, type Hex, parseEther } from "viem";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createChainClient } from "../src/chain/client.ts";
import { type Config, loadConfig } from "../src/config.ts";
import type { IndexerOptions } from "../src/indexer/indexer.ts";
import {
  admin,
  alice,
  artist,
  bob,
  createScratchDatabase,
  driver,
  indexerOptions,
  indexToHead,
  startTestChain,
  type TestChain,
} from "../src/indexer/testing.ts";
import { chainOrder } from "../src/trading/signedListings.ts";
import { recheckSignedListings } from "../src/worker/signedListings.ts";
import { type AccountsApi, expectError, startAccountsApi, type TestUser } from "./accounts-helpers.ts";

type Account = typeof artist;
type Bulk = {
  data: { stored: SignedListing[]; refused: { index: number; tokenId: string; message: string }[] };
};
type Fill = {
  data: {
    id: string;
    order: SignedListingOrder;
    signature: Hex;
    bulk?: { index: string; proof: Hex[] } | null;
  };
};

let t: TestChain;
let d: ReturnType<typeof driver>;
let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
let api: AccountsApi;
let options: IndexerOptions;
let config: Config;
let users: Record<"artist" | "alice" | "bob", TestUser>;
/** Harbour: tokens 1..14 minted by the artist (10 given to alice), the market approved. */
let art: Address;
/** The first bulk listing: tokens 1..10, 10 not the artist's. */
let first: Bulk["data"];
let firstSignature: Hex;
let firstOrders: SignedListingOrder[];

const DAY = 86_400;
const index = () => indexToHead(options);
const q = async <T = Record<string, unknown>>(text: string, values: unknown[] = []) =>
  (await scratch.db.$client.query(text, values)).rows as T[];
const statusOf = async (id: string) =>
  (await q<{ status: string }>("SELECT status FROM signed_listings WHERE id = $1", [id]))[0]?.status;

/** Orders for `tokenIds` as the chain stands now, `price(i)` each. */
async function ordersFor(
  seller: Address,
  tokenIds: bigint[],
  price = (i: number) => parseEther("0.1") * BigInt(i + 1),
) {
  const [latest, counter] = await Promise.all([
    t.publicClient.getBlock(),
    t.publicClient.readContract({
      address: t.market,
      abi: easelMarketAbi,
      functionName: "listingCounterOf",
      args: [seller],
    }),
  ]);
  return Promise.all(
    tokenIds.map(async (tokenId, i): Promise<SignedListingOrder> => {
      const transferCount = await t.publicClient.readContract({
        address: art,
        abi: easelCollectionAbi,
        functionName: "transferCountOf",
        args: [tokenId],
      });
      return {
        collection: art.toLowerCase(),
        tokenId: tokenId.toString(),
        price: price(i).toString(),
        seller: seller.toLowerCase(),
        transferCount: transferCount.toString(),
        counter: counter.toString(),
        expiresAt: String(Number(latest.timestamp) + 30 * DAY),
        maxFeeBps: 1_000,
      };
    }),
  );
}

/** One signature over the tree of `orders` (as the web app signs it: `primaryType` "BulkListing"). */
function signBulk(who: Account, orders: SignedListingOrder[]): Promise<Hex> {
  const tree = bulkListing(orders.map(chainOrder));
  return who.signTypedData({
    domain: { ...SIGNED_LISTING_DOMAIN, chainId: 31337, verifyingContract: t.market },
    types: tree.types,
    primaryType: "BulkListing",
    message: tree.message as never,
  });
}

const postBulk = (user: TestUser, orders: SignedListingOrder[], signature: Hex) =>
  api.call<Bulk>("POST", "/api/signed-listings/bulk", { user, body: { orders, signature } });

const fill = (tokenId: bigint) =>
  api.call<Fill>("GET", `/api/signed-listings/fill?collection=${art}&tokenId=${tokenId}`);

beforeAll(async () => {
  t = await startTestChain();
  scratch = await createScratchDatabase(inject("databaseUrl"), "bulk");
  d = driver(t);
  await d.market(admin, "setArtistVerified", [artist.address, true]);
  art = await d.createCollection(artist, "Harbour", "HRB");
  for (let id = 1n; id <= 14n; id++) await d.mint(artist, art, id);
  await d.approve(artist, art);
  await d.send(artist, art, easelCollectionAbi, "transferFrom", [artist.address, alice.address, 10n]);
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

describe("posting a bulk listing", () => {
  it("stores each order of one signature with its leaf, and refuses the one the seller does not own", async () => {
    const orders = await ordersFor(artist.address, [1n, 2n, 3n, 4n, 5n, 6n, 7n, 8n, 9n, 10n]);
    firstOrders = orders;
    firstSignature = await signBulk(artist, orders);
    const res = await postBulk(users.artist, orders, firstSignature);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    first = res.body.data;
    expect(first.stored.map((s) => s.order.tokenId)).toEqual(["1", "2", "3", "4", "5", "6", "7", "8", "9"]);
    expect(first.stored.every((s) => s.status === "active")).toBe(true);
    expect(first.refused).toEqual([
      { index: 9, tokenId: "10", message: "Only the owner of this item can list it." },
    ]);
    // Each row keeps its leaf of the tree the seller signed (rebuilt by the server, not sent by the client).
    const tree = bulkListing(orders.map(chainOrder));
    const rows = await q<{ token_id: string; bulk_index: number; bulk_proof: string[]; bulk_root: string }>(
      "SELECT token_id::text, bulk_index, bulk_proof, bulk_root FROM signed_listings WHERE signature = $1 ORDER BY bulk_index",
      [firstSignature.toLowerCase()],
    );
    expect(rows).toHaveLength(9);
    rows.forEach((row, i) => {
      expect(row).toEqual({
        token_id: String(i + 1),
        bulk_index: i,
        bulk_proof: tree.proofs[i]?.proof,
        bulk_root: tree.root,
      });
    });
    // Shown wherever a listing shows: the token row and the floor.
    const [token] = await q<{ status: string; price: string }>(
      "SELECT status, price::text FROM chain_tokens WHERE collection = $1 AND token_id = 2",
      [art.toLowerCase()],
    );
    expect(token).toEqual({ status: "fix", price: parseEther("0.2").toString() });
    const [collection] = await q<{ floor: string }>(
      "SELECT floor_price::text AS floor FROM chain_collections WHERE address = $1",
      [art.toLowerCase()],
    );
    expect(collection?.floor).toBe(parseEther("0.1").toString());
  });

  it("lists the works the seller can list, with the price of their live signed listing", async () => {
    const res = await api.call<{ data: { tokenId: string; signedPriceWei: string | null; path: string }[] }>(
      "GET",
      `/api/signed-listings/listable?collection=${art}`,
      { user: users.artist },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const byId = new Map(res.body.data.map((w) => [w.tokenId, w]));
    // Token 10 is alice's; 1..9 carry their bulk price, 11..14 are not listed.
    expect([...byId.keys()].sort((a, b) => Number(a) - Number(b))).toEqual([
      "1",
      "2",
      "3",
      "4",
      "5",
      "6",
      "7",
      "8",
      "9",
      "11",
      "12",
      "13",
      "14",
    ]);
    expect(byId.get("2")?.signedPriceWei).toBe(parseEther("0.2").toString());
    expect(byId.get("11")?.signedPriceWei).toBeNull();
    expect(byId.get("11")?.path).toBe(`/${artist.address.toLowerCase()}/Harbour/11`);
    const alices = await api.call<{ data: { tokenId: string }[] }>("GET", "/api/signed-listings/listable", {
      user: users.alice,
    });
    expect(alices.body.data.map((w) => w.tokenId)).toEqual(["10"]);
    expect((await api.call("GET", "/api/signed-listings/listable")).status).toBe(401);
  });

  it("posted again, keeps one row per leaf", async () => {
    const res = await postBulk(users.artist, firstOrders, firstSignature);
    expect(res.status).toBe(201);
    expect(res.body.data.stored.map((s) => s.id)).toEqual(first.stored.map((s) => s.id));
    const [{ n }] = (await q<{ n: number }>(
      "SELECT count(*)::int AS n FROM signed_listings WHERE signature = $1",
      [firstSignature.toLowerCase()],
    )) as [{ n: number }];
    expect(n).toBe(9);
  });

  it("refuses every order of a tampered tree, a signature not the seller's, and another seller's orders", async () => {
    const orders = await ordersFor(artist.address, [11n, 12n]);
    const signature = await signBulk(artist, orders);
    // A price changed after signing: the tree the server builds is not the one signed.
    const cheaper = [{ ...orders[0], price: "1000" } as SignedListingOrder, orders[1] as SignedListingOrder];
    const tampered = await postBulk(users.artist, cheaper, signature);
    expect(tampered.status).toBe(201);
    expect(tampered.body.data.stored).toEqual([]);
    expect(tampered.body.data.refused.map((r) => r.message)).toEqual([
      "This listing's signature is not the seller's.",
      "This listing's signature is not the seller's.",
    ]);
    // The orders in another leaf order: another tree.
    const swapped = await postBulk(users.artist, [orders[1], orders[0]] as SignedListingOrder[], signature);
    expect(swapped.body.data.stored).toEqual([]);
    expect(swapped.body.data.refused).toHaveLength(2);
    const bobs = await postBulk(users.artist, orders, await signBulk(bob, orders));
    expect(bobs.body.data.stored).toEqual([]);
    expect(bobs.body.data.refused[0]?.message).toBe("This listing's signature is not the seller's.");
    // Signed by the artist, posted by alice: the seller must be the signed-in wallet.
    expectError(await postBulk(users.alice, orders, signature), 403, { code: "not_seller" });
    expect(await q("SELECT 1 FROM signed_listings WHERE token_id IN (11, 12)")).toEqual([]);
    const anonymous = await api.call("POST", "/api/signed-listings/bulk", { body: { orders, signature } });
    expect(anonymous.status).toBe(401);
  });

  it("lists a work once when the tree names it twice, and refuses an expiry past 100 days", async () => {
    const [a, b] = await ordersFor(artist.address, [11n, 12n]);
    const far = {
      ...(b as SignedListingOrder),
      expiresAt: String(Math.floor(Date.now() / 1000) + 101 * DAY),
    };
    const orders = [a, a, far] as SignedListingOrder[];
    const res = await postBulk(users.artist, orders, await signBulk(artist, orders));
    expect(res.status).toBe(201);
    expect(res.body.data.stored.map((s) => s.order.tokenId)).toEqual(["11"]);
    expect(res.body.data.refused).toEqual([
      {
        index: 1,
        tokenId: "11",
        message: "This work is in the listing twice: only its first order is listed.",
      },
      { index: 2, tokenId: "12", message: "A listing can last at most 100 days." },
    ]);
  });

  it("refuses more than 1,024 orders", async () => {
    const [one] = await ordersFor(artist.address, [13n]);
    const orders = Array.from({ length: 1025 }, () => one as SignedListingOrder);
    const res = await postBulk(users.artist, orders, `0x${"11".repeat(65)}`);
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain("One signature lists at most 1,024 works");
  });
});

describe("buying and retiring the orders of a bulk signature", () => {
  it("hands out the order with its leaf, and the fill on chain pays the seller; the others stay", async () => {
    const res = await fill(3n);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const stored = first.stored[2] as SignedListing;
    expect(res.body.data).toMatchObject({
      id: stored.id,
      order: stored.order,
      signature: firstSignature.toLowerCase(),
    });
    const tree = bulkListing(firstOrders.map(chainOrder));
    expect(res.body.data.bulk?.index).toBe("2");
    expect(res.body.data.bulk?.proof).toHaveLength(4);
    const [row] = await q<{ bulk_proof: string[] }>("SELECT bulk_proof FROM signed_listings WHERE id = $1", [
      stored.id,
    ]);
    expect(res.body.data.bulk?.proof).toEqual(row?.bulk_proof);
    expect(res.body.data.bulk?.proof).toEqual(tree.proofs[2]?.proof);
    expect(tree.height).toBe(4);
    const price = BigInt(stored.order.price);
    const before = await t.publicClient.getBalance({ address: artist.address });
    const hash = await t.wallet(bob).writeContract({
      address: t.market,
      abi: easelMarketAbi,
      functionName: "fillBulkSignedListing",
      args: [
        chainOrder(res.body.data.order),
        packBulkSignature(
          res.body.data.signature,
          BigInt(res.body.data.bulk?.index ?? 0),
          res.body.data.bulk?.proof ?? [],
        ),
      ],
      value: price,
      chain: t.chain,
      account: bob,
    });
    const receipt = await t.publicClient.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe("success");
    // A first sale: the primary commission (10%) to the market, the rest to the artist.
    const after = await t.publicClient.getBalance({ address: artist.address });
    expect(after - before).toBe(price - (price * 1_000n) / 10_000n);
    await index();
    expect(await statusOf(stored.id)).toBe("filled");
    const sales = await q("SELECT mechanism, buyer FROM chain_sales WHERE collection = $1 AND token_id = 3", [
      art.toLowerCase(),
    ]);
    expect(sales).toEqual([{ mechanism: "signed-listing", buyer: bob.address.toLowerCase() }]);
    for (const other of first.stored.filter((s) => s.id !== stored.id))
      expect(await statusOf(other.id)).toBe("active");
    expectError(await fill(3n), 404);
  });

  it("a cancel on chain of one token retires only its order", async () => {
    await d.market(artist, "cancelSignedListing", [art, 4n]);
    await index();
    expect(await statusOf((first.stored[3] as SignedListing).id)).toBe("cancelled");
    expect(await statusOf((first.stored[4] as SignedListing).id)).toBe("active");
    expect((await fill(5n)).status).toBe(200);
  });

  it("a withdrawn approval pauses them, and the worker's recheck (bulk status) brings them back", async () => {
    const five = (first.stored[4] as SignedListing).id;
    await d.send(artist, art, easelCollectionAbi, "setApprovalForAll", [t.market, false]);
    await index();
    expect(await statusOf(five)).toBe("paused");
    await d.approve(artist, art);
    await index();
    const result = await recheckSignedListings({
      db: scratch.db,
      chain: options.chain,
      market: config.contracts.market,
    });
    expect(result.shown).toBeGreaterThanOrEqual(6);
    expect(await statusOf(five)).toBe("active");
    expect((await fill(5n)).body.data.bulk?.index).toBe("4");
  });

  it("a counter bump retires every order of the signature", async () => {
    await d.market(artist, "incrementListingCounter", []);
    await index();
    const statuses = await Promise.all(first.stored.map((s) => statusOf(s.id)));
    expect(statuses).toEqual([
      "bumped",
      "bumped",
      "filled",
      "cancelled",
      "bumped",
      "bumped",
      "bumped",
      "bumped",
      "bumped",
    ]);
    expectError(await fill(5n), 404);
  });
});

describe("rate limit", () => {
  it("allows 10 bulk posts a minute per wallet, however many orders each holds", async () => {
    const orders = await ordersFor(bob.address, [1n]);
    const signature = await signBulk(bob, orders);
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await postBulk(users.bob, orders, signature)).status);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(201));
    expect(statuses[10]).toBe(429);
  });
});

/**
 * Collection and trait offers (issue 51): the server finds a trait's works and keeps its token root, lists a
 * collection's and a buyer's offers (the trait read back from the root, an active offer past its expiry read
 * as expired), answers the best offer a work can accept with a proof the market takes, and tells owners whose
 * best item offer a new one beats.
 */
import { cidToHex, type MintResponse, type NotificationsResponse } from "@easel/common";
import { easelCollectionAbi, easelMarketAbi, tokenRoot } from "@easel/contracts";
import { sql } from "drizzle-orm";
import { decodeEventLog, parseEther, parseEventLogs } from "viem";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { loadConfig } from "../src/config.ts";
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
import { COLLECTION_OFFER_MESSAGES, ZERO_ROOT } from "../src/trading/collectionOffers.ts";
import { type AccountsApi, expectError, startAccountsApi, type TestUser } from "./accounts-helpers.ts";
import { jpegWithGps } from "./images.ts";

type Offer = {
  offerId: string;
  terms: { buyer: string; collection: string; tokenRoot: string; price: string; expiresAt: string };
  trait: { traitType: string; traitValue: string } | null;
  quantity: number;
  remaining: number;
  status: string;
  buyerPerson: { address: string };
};
type Terms = {
  buyer: `0x${string}`;
  collection: `0x${string}`;
  tokenRoot: `0x${string}`;
  price: bigint;
  expiresAt: bigint;
};

let t: TestChain;
let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
let api: AccountsApi;
let users: Record<"artist" | "alice" | "bob" | "carol", TestUser>;
let tidal: `0x${string}`;
let index: () => Promise<void>;
let d: ReturnType<typeof driver>;
/** Token ids by name: two Calm works, one Stormy. */
const works: Record<"still" | "lull" | "gale", string> = { still: "", lull: "", gale: "" };

beforeAll(async () => {
  t = await startTestChain();
  scratch = await createScratchDatabase(inject("databaseUrl"), "coffers");
  d = driver(t);
  await d.market(admin, "setArtistVerified", [artist.address, true]);
  tidal = await d.createCollection(artist, "Tidal", "TDL", "painting");
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
  const { body } = await api.call<{ data: { category_web2: { _id: number; title: string }[] } }>(
    "GET",
    "/api/category-web2",
  );
  const painting = body.data.category_web2.find((c) => c.title === "Painting")?._id ?? 0;
  const registered = await api.call("POST", "/api/collection", {
    user: users.artist,
    body: {
      contract_address: tidal,
      name: "Tidal",
      symbol: "TDL",
      collectionType: "standard",
      category_web2_id: painting,
    },
  });
  expect(registered.status, JSON.stringify(registered.body)).toBe(200);
  /** Uploads through the mint route (its properties become the item's traits) and mints on chain. */
  const mint = async (name: string, mood: string) => {
    const form = new FormData();
    for (const [key, value] of Object.entries({
      category_web2_id: String(painting),
      collection: tidal,
      name,
      royalty: "5",
      description: "Water, weather.",
      tags: JSON.stringify(["sea"]),
      properties: JSON.stringify([{ name: "Mood", value: mood }]),
    }))
      form.append(key, value);
    form.append("file", new Blob([await jpegWithGps()], { type: "image/jpeg" }), "art.jpg");
    const response = await fetch(`${api.url}/api/mint`, {
      method: "POST",
      headers: { cookie: users.artist.cookie },
      body: form,
    });
    const answer = (await response.json()) as MintResponse;
    expect(response.status, JSON.stringify(answer)).toBe(200);
    const receipt = await d.send(artist, tidal, easelCollectionAbi, "mintNFT", [
      500,
      cidToHex(answer.data.newNft.uri_cid),
      [],
    ]);
    const [minted] = parseEventLogs({ abi: easelCollectionAbi, logs: receipt.logs, eventName: "Minted" });
    return String((minted as unknown as { args: { tokenId: bigint } }).args.tokenId);
  };
  works.still = await mint("Still Water", "Calm");
  works.lull = await mint("Lull", "Calm");
  works.gale = await mint("Gale", "Stormy");
  // Alice owns the second Calm work, and turned offer notifications off.
  await d.send(artist, tidal, easelCollectionAbi, "transferFrom", [
    artist.address,
    alice.address,
    BigInt(works.lull),
  ]);
  const off = await api.call("PUT", "/api/profile/notif_allow", {
    user: users.alice,
    body: { offer: false },
  });
  expect(off.status, JSON.stringify(off.body)).toBe(200);
  // Carol's item offer on Still Water, which a trait offer of 0.2 beats.
  await d.market(
    carol,
    "makeOffer",
    [tidal, BigInt(works.still), parseEther("0.1"), await d.offerExpiry()],
    parseEther("0.1"),
  );
  await d.approve(artist, tidal);
  await d.approve(alice, tidal);
  await index();
}, 180_000);

afterAll(async () => {
  await api?.close();
  await scratch?.drop();
  await t?.stop();
});

const roots = (user: TestUser | undefined, traitType: string, traitValue: string) =>
  api.call<{ data: { tokenRoot: `0x${string}`; tokenIds: string[] } }>(
    "POST",
    "/api/collection-offers/roots",
    {
      ...(user ? { user } : {}),
      body: { collection: tidal, traitType, traitValue },
    },
  );
const list = (query: string) => api.call<{ data: Offer[] }>("GET", `/api/collection-offers?${query}`);
const best = (tokenId: string) =>
  api.call<{ data: { offer: Offer; proof: `0x${string}`[] } | null }>(
    "GET",
    `/api/collection-offers/best?collection=${tidal}&tokenId=${tokenId}`,
  );

async function make(who: typeof bob, terms: Omit<Terms, "buyer">, quantity: bigint): Promise<Terms> {
  const offer = { ...terms, buyer: who.address };
  await d.market(who, "makeCollectionOffer", [offer, quantity], terms.price * quantity);
  await index();
  return offer;
}

const balance = (address: `0x${string}`) => t.publicClient.getBalance({ address });

describe("trait roots", () => {
  it("are the trait's works, ascending, and their tokenRoot; kept for their owners' proofs", async () => {
    const answer = await roots(users.bob, "Mood", "Calm");
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.data.tokenIds).toEqual([works.still, works.lull]);
    expect(answer.body.data.tokenRoot).toBe(tokenRoot([BigInt(works.still), BigInt(works.lull)]).root);
    const { rows } = await scratch.db.execute<{
      collection: string;
      token_ids: string[];
      created_by: string;
    }>(
      sql`SELECT collection, token_ids, created_by FROM trait_roots WHERE token_root = ${answer.body.data.tokenRoot}`,
    );
    expect(rows).toEqual([
      {
        collection: tidal.toLowerCase(),
        token_ids: [works.still, works.lull],
        created_by: bob.address.toLowerCase(),
      },
    ]);
    // Asked again: the same root, one row.
    expect((await roots(users.carol, "Mood", "Calm")).body.data.tokenRoot).toBe(answer.body.data.tokenRoot);
  });

  it("are refused in words for a trait no work has, and to visitors", async () => {
    expectError(await roots(users.bob, "Mood", "Sunny"), 400, {
      field: "traitValue",
      message: COLLECTION_OFFER_MESSAGES.noWorks("Mood", "Sunny"),
    });
    expect((await roots(undefined, "Mood", "Calm")).status).toBe(401);
  });
});

describe("collection and trait offers", () => {
  let trait: Terms;
  let any: Terms;

  beforeAll(async () => {
    const { body } = await roots(users.bob, "Mood", "Calm");
    trait = await make(
      bob,
      {
        collection: tidal,
        tokenRoot: body.data.tokenRoot,
        price: parseEther("0.2"),
        expiresAt: await d.offerExpiry(3),
      },
      2n,
    );
    // Alice's offer on any work of Tidal, lower.
    any = await make(
      alice,
      {
        collection: tidal,
        tokenRoot: ZERO_ROOT,
        price: parseEther("0.05"),
        expiresAt: await d.offerExpiry(1),
      },
      1n,
    );
  }, 60_000);

  it("are listed by collection (best price first, the trait read back from its root) and by buyer", async () => {
    const byCollection = await list(`collection=${tidal}`);
    expect(byCollection.status, JSON.stringify(byCollection.body)).toBe(200);
    expect(
      byCollection.body.data.map((o) => [
        o.terms.buyer,
        o.terms.price,
        o.trait,
        o.quantity,
        o.remaining,
        o.status,
      ]),
    ).toEqual([
      [
        bob.address.toLowerCase(),
        parseEther("0.2").toString(),
        { traitType: "Mood", traitValue: "Calm" },
        2,
        2,
        "active",
      ],
      [alice.address.toLowerCase(), parseEther("0.05").toString(), null, 1, 1, "active"],
    ]);
    const [first] = byCollection.body.data;
    expect(first?.terms).toEqual({
      buyer: bob.address.toLowerCase(),
      collection: tidal.toLowerCase(),
      tokenRoot: trait.tokenRoot,
      price: trait.price.toString(),
      expiresAt: trait.expiresAt.toString(),
    });
    const byBuyer = await list(`buyer=${bob.address}`);
    expect(byBuyer.body.data.map((o) => o.offerId)).toEqual([first?.offerId]);
    expectError(await list(""), 400, { field: "collection" });
  });

  it("tell the owner whose best item offer a trait offer beats, as their preferences allow", async () => {
    const artistNotes = await api.call<NotificationsResponse>("GET", "/api/profile/notifications", {
      user: users.artist,
    });
    const offers = artistNotes.body.data.notificationsTemp.filter((n) => n.kind === "collection_offer");
    // Still Water's item offer (0.1) is below the trait offer and above Alice's 0.05 on any work; Gale has no
    // item offer, so there is nothing to beat and its owner is not told of every collection offer.
    expect(offers.map((n) => n.message).sort()).toEqual([
      "A trait offer (Mood: Calm) of 0.2 ETH on Tidal beats your best offer on “Still Water”.",
    ]);
    // Alice owns Lull, but turned offer notifications off; the buyer is never told of their own offer.
    for (const user of [users.alice, users.bob]) {
      const notes = await api.call<NotificationsResponse>("GET", "/api/profile/notifications", { user });
      expect(notes.body.data.notificationsTemp.filter((n) => n.kind === "collection_offer")).toEqual([]);
    }
  });

  it("answer the best offer for a work with a proof the market accepts, and pay the seller", async () => {
    const answer = await best(works.still);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.data?.offer.terms.tokenRoot).toBe(trait.tokenRoot);
    const proof = answer.body.data?.proof ?? [];
    expect(proof).toEqual(tokenRoot([BigInt(works.still), BigInt(works.lull)]).proof(BigInt(works.still)));
    const before = await balance(artist.address);
    const receipt = await d.market(artist, "acceptCollectionOffer", [trait, BigInt(works.still), proof]);
    const cost = receipt.gasUsed * receipt.effectiveGasPrice;
    const sale = receipt.logs
      .filter((l) => l.address.toLowerCase() === t.market.toLowerCase())
      .map((l) => {
        try {
          return decodeEventLog({ abi: easelMarketAbi, data: l.data, topics: l.topics });
        } catch {
          return null;
        }
      })
      .find((e) => e?.eventName === "Sale") as { args: Record<string, unknown> } | undefined;
    expect(sale).toBeDefined();
    const owner = await t.publicClient.readContract({
      address: tidal,
      abi: easelCollectionAbi,
      functionName: "ownerOf",
      args: [BigInt(works.still)],
    });
    expect(owner).toBe(bob.address);
    expect([sale?.args.mechanism, sale?.args.price, sale?.args.buyer]).toEqual([5, trait.price, bob.address]);
    // The artist is the creator and the seller: paid the price less Easel's fee, to the wei.
    const fee = sale?.args.fee as bigint;
    expect(fee).toBeGreaterThan(0n);
    expect((await balance(artist.address)) - before + cost).toBe(trait.price - fee);
    const offerId = (await list(`buyer=${bob.address}`)).body.data[0]?.offerId as `0x${string}`;
    expect(
      await t.publicClient.readContract({
        address: t.market,
        abi: easelMarketAbi,
        functionName: "collectionOfferRemaining",
        args: [offerId],
      }),
    ).toBe(1n);
    await index();
    const [row] = (await list(`buyer=${bob.address}`)).body.data;
    expect([row?.quantity, row?.remaining, row?.status]).toEqual([2, 1, "active"]);
  });

  it("are not the best offer of a work without the trait, which the market refuses too", async () => {
    const answer = await best(works.gale);
    // Only Alice's offer on any work covers Gale.
    expect(answer.body.data?.offer.terms.buyer).toBe(alice.address.toLowerCase());
    expect(answer.body.data?.proof).toEqual([]);
    const proof = tokenRoot([BigInt(works.still), BigInt(works.lull)]).proof(BigInt(works.lull));
    await expect(
      d.market(artist, "acceptCollectionOffer", [trait, BigInt(works.gale), proof]),
    ).rejects.toThrow();
  });

  it("leave out the owner's own offer", async () => {
    // Lull belongs to Alice: her own offer on any work is not hers to accept, Bob's trait offer is.
    const answer = await best(works.lull);
    expect(answer.body.data?.offer.terms.buyer).toBe(bob.address.toLowerCase());
  });

  it("are no offer to accept for a work in an auction, nor for one the market holds, until it is free again", async () => {
    const gale = BigInt(works.gale);
    const ownerOf = () =>
      t.publicClient.readContract({
        address: tidal,
        abi: easelCollectionAbi,
        functionName: "ownerOf",
        args: [gale],
      });
    // In an auction the work stays with its seller, locked: the market refuses to sell it another way.
    await d.market(artist, "setStandardAuction", [tidal, gale, parseEther("1"), 0n, 3600n]);
    await index();
    expect(await ownerOf()).toBe(artist.address);
    expect((await best(works.gale)).body.data).toBeNull();
    await expect(d.market(artist, "acceptCollectionOffer", [any, gale, []])).rejects.toThrow();
    // Cancelled, the auction frees it: Alice's offer on any work is there to accept again.
    await d.market(artist, "invalidateAuction", [tidal, gale]);
    await index();
    expect((await best(works.gale)).body.data?.offer.terms.buyer).toBe(alice.address.toLowerCase());
    // Sent to the market by hand, it is not its owner's to sell until an operator hands it back.
    await d.send(artist, tidal, easelCollectionAbi, "transferFrom", [artist.address, t.market, gale]);
    await index();
    expect((await best(works.gale)).body.data).toBeNull();
    await d.market(admin, "rescueToken", [tidal, gale, artist.address]);
    await index();
    expect(await ownerOf()).toBe(artist.address);
    expect((await best(works.gale)).body.data?.offer.terms.buyer).toBe(alice.address.toLowerCase());
  });

  it("are no offer to accept while the work or its collection is blocked or its owner banned: the market refuses each", async () => {
    const gale = BigInt(works.gale);
    const acceptable = async () => (await best(works.gale)).body.data?.offer.terms.buyer ?? null;
    const alices = alice.address.toLowerCase();
    expect(await acceptable()).toBe(alices);
    await d.market(admin, "setTokenBlocked", [tidal, gale, true]);
    await index();
    expect(await acceptable()).toBeNull();
    await expect(d.market(artist, "acceptCollectionOffer", [any, gale, []])).rejects.toThrow();
    await d.market(admin, "setTokenBlocked", [tidal, gale, false]);
    await d.market(admin, "setCollectionBlocked", [tidal, true]);
    await index();
    expect(await acceptable()).toBeNull();
    await d.market(admin, "setCollectionBlocked", [tidal, false]);
    await d.market(admin, "setBanned", [artist.address, true]);
    await index();
    expect(await acceptable()).toBeNull();
    await expect(d.market(artist, "acceptCollectionOffer", [any, gale, []])).rejects.toThrow();
    await d.market(admin, "setBanned", [artist.address, false]);
    await index();
    expect(await acceptable()).toBe(alices);
  });

  it("read expired once past their expiry while still active, and drop out of the best", async () => {
    const soon = (await t.publicClient.getBlock()).timestamp + 4n;
    const short = await make(
      carol,
      { collection: tidal, tokenRoot: ZERO_ROOT, price: parseEther("1"), expiresAt: soon },
      1n,
    );
    expect((await best(works.gale)).body.data?.offer.terms.buyer).toBe(carol.address.toLowerCase());
    // The server's clock, as readers see it, passes the expiry.
    const wait = Number(soon) * 1000 - Date.now() + 1500;
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const [mine] = (await list(`buyer=${carol.address}`)).body.data;
    expect([mine?.terms.expiresAt, mine?.status]).toEqual([short.expiresAt.toString(), "expired"]);
    expect((await list(`buyer=${carol.address}&status=expired`)).body.data).toHaveLength(1);
    expect((await list(`buyer=${carol.address}&status=active`)).body.data).toHaveLength(0);
    expect((await best(works.gale)).body.data?.offer.terms.buyer).toBe(alice.address.toLowerCase());
  });

  it("read cancelled once withdrawn, and leave nothing to accept", async () => {
    await d.market(alice, "cancelCollectionOffer", [any]);
    await index();
    expect((await list(`buyer=${alice.address}`)).body.data.map((o) => o.status)).toEqual(["cancelled"]);
    expect((await best(works.gale)).body.data).toBeNull();
  });
});

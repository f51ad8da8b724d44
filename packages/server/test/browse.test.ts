import type {
  CollectionActivityResponse,
  CollectionHistoryResponse,
  CollectionResponse,
  ExploreCollectionsResponse,
  ExploreItemsResponse,
  HomeResponse,
  NftCard,
  SearchResponse,
} from "@easel/common";
import { easelFactoryAbi } from "@easel/contracts";
import { formatEther, parseEther } from "viem";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { collectionActivity } from "../src/browse/activity.ts";
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
import { type AccountsApi, startAccountsApi, type TestUser } from "./accounts-helpers.ts";

let t: TestChain;
let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
let api: AccountsApi;
let users: Record<"artist" | "alice" | "bob" | "carol", TestUser>;
let harbour: `0x${string}`;
let meadow: `0x${string}`;
let blocked: `0x${string}`;
let twin: `0x${string}`;
let painting: number;
let photography: number;
let index: () => Promise<void>;

type Any = Record<string, unknown>;

beforeAll(async () => {
  t = await startTestChain();
  scratch = await createScratchDatabase(inject("databaseUrl"), "browse");
  const d = driver(t);
  for (const who of [artist, carol]) await d.market(admin, "setArtistVerified", [who.address, true]);
  harbour = await d.createCollection(artist, "Harbour Lights", "HRB");
  meadow = await d.createCollection(carol, "Meadow", "MDW", "photography");
  blocked = await d.createCollection(carol, "Hidden Works", "HID");
  for (const id of [1n, 2n, 3n, 4n, 5n, 6n]) await d.mint(artist, harbour, id);
  for (const id of [1n, 2n, 3n]) await d.mint(carol, meadow, id);
  await d.mint(carol, blocked, 1n);
  await d.approve(artist, harbour);
  await d.approve(carol, meadow);
  // Harbour: 1 listed at 1 ETH, 2 listed at 0.3 ETH, 3 in a standard auction with a bid, 4 in a reserve
  // auction without a bid, 5 has an offer, 6 sold to bob.
  await d.market(artist, "setSellOrder", [harbour, 1n, parseEther("1")]);
  await d.market(artist, "setSellOrder", [harbour, 2n, parseEther("0.3")]);
  await d.market(artist, "setStandardAuction", [harbour, 3n, parseEther("1"), 0n, 86_400n]);
  await d.market(bob, "placeBid", [harbour, 3n, parseEther("1.2")], parseEther("1.2"));
  await d.market(artist, "setReserveAuction", [harbour, 4n, parseEther("2")]);
  await d.market(
    alice,
    "makeOffer",
    [harbour, 5n, parseEther("0.2"), await d.offerExpiry()],
    parseEther("0.2"),
  );
  await d.market(artist, "setSellOrder", [harbour, 6n, parseEther("0.7")]);
  await d.market(bob, "buyNow", [harbour, 6n], parseEther("0.7"));
  // Meadow: 1 and 2 listed by carol.
  await d.market(carol, "setSellOrder", [meadow, 1n, parseEther("0.05")]);
  await d.market(carol, "setSellOrder", [meadow, 2n, parseEther("0.4")]);
  await d.market(admin, "setCollectionBlocked", [blocked, true]);
  // A second "Meadow" (bypassing the app's name check): the older one keeps the name's page.
  twin = await d.createCollection(artist, "meadow", "MDW2");

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
  const byTitle = (title: string) => body.data.category_web2.find((c) => c.title === title)?._id ?? 0;
  painting = byTitle("Painting");
  photography = byTitle("Photography");
  for (const [user, address, name, symbol, category] of [
    [users.artist, harbour, "Harbour Lights", "HRB", painting],
    [users.carol, meadow, "Meadow", "MDW", photography],
  ] as const) {
    const registered = await api.call("POST", "/api/collection", {
      user,
      body: {
        contract_address: address,
        name,
        symbol,
        collectionType: "standard",
        category_web2_id: category,
      },
    });
    expect(registered.status).toBe(200);
  }
}, 180_000);

afterAll(async () => {
  await api?.close();
  await scratch?.drop();
  await t?.stop();
});

const get = async <T>(path: string, user?: TestUser) => {
  const response = await api.call<T>("GET", path, { user });
  if (response.status !== 200)
    throw new Error(`${path}: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
};

/** Every page of an explore query, `limit` at a time, following the cursors. */
async function allPages(query: string, limit = 2): Promise<NftCard[]> {
  const out: NftCard[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < 100; i++) {
    const sep = query ? "&" : "";
    const path: string = `/api/explore?${query}${sep}limit=${limit}${cursor ? `&cursor=${cursor}` : ""}`;
    const { data } = await get<ExploreItemsResponse>(path);
    expect(data.nfts.length).toBeLessThanOrEqual(limit);
    out.push(...data.nfts);
    cursor = data.nextCursor;
    if (!cursor) return out;
  }
  throw new Error("too many pages");
}

/** The same rows straight from the tables, for brute-force comparison. */
async function tokensFromTables(): Promise<Any[]> {
  const { rows } = await scratch.db.$client.query(`
    SELECT t.*, c.blocked AS c_blocked, d.category_id,
      coalesce(st.views, 0) AS views, coalesce(st.favorites, 0) AS favorites,
      so.expires_at, au.kind AS auction_kind, au.end_time, au.top_bid,
      (SELECT count(*) FROM chain_offers o WHERE o.collection = t.collection AND o.token_id = t.token_id
         AND o.status = 'active' AND (o.expires_at IS NULL OR o.expires_at > now()))::int AS offers,
      coalesce(ca.banned, false) AS owner_banned
    FROM chain_tokens t JOIN chain_collections c ON c.address = t.collection
    LEFT JOIN collection_details d ON d.address = t.collection
    LEFT JOIN chain_sell_orders so ON so.collection = t.collection AND so.token_id = t.token_id AND so.status = 'active'
    LEFT JOIN chain_auctions au ON au.collection = t.collection AND au.token_id = t.token_id AND au.status = 'active'
    LEFT JOIN chain_accounts ca ON ca.address = t.owner
    LEFT JOIN item_stats st ON st.collection = t.collection AND st.token_id = t.token_id`);
  return rows.filter((r: Any) => r.status !== "burned" && !r.blocked && !r.c_blocked);
}

const key = (r: Any) => `${r.collection}:${r.token_id}`;
const cmp = (a: bigint | string | number, b: bigint | string | number) => (a < b ? -1 : a > b ? 1 : 0);
const tieBreak = (a: Any, b: Any) =>
  cmp(String(a.collection), String(b.collection)) ||
  cmp(BigInt(String(a.token_id)), BigInt(String(b.token_id)));

const byCount = (column: string) => (rows: Any[]) =>
  [...rows].sort((a, b) => -(cmp(Number(a[column]), Number(b[column])) || tieBreak(a, b)));

const expectedOrder: Record<string, (rows: Any[]) => Any[]> = {
  mostViewed: byCount("views"),
  mostFavorited: byCount("favorites"),
  recentlyCreated: (rows) =>
    [...rows].sort(
      (a, b) => -(cmp(BigInt(String(a.minted_block)), BigInt(String(b.minted_block))) || tieBreak(a, b)),
    ),
  none: (rows) =>
    [...rows].sort(
      (a, b) => cmp(BigInt(String(a.minted_block)), BigInt(String(b.minted_block))) || tieBreak(a, b),
    ),
  priceLowToHigh: (rows) =>
    rows
      .filter((r) => r.price != null)
      .sort((a, b) => cmp(BigInt(String(a.price)), BigInt(String(b.price))) || tieBreak(a, b)),
  priceHighToLow: (rows) =>
    rows
      .filter((r) => r.price != null)
      .sort((a, b) => -(cmp(BigInt(String(a.price)), BigInt(String(b.price))) || tieBreak(a, b))),
  recentlyListed: (rows) =>
    rows
      .filter((r) => r.listed_at != null)
      .sort(
        (a, b) =>
          -(
            cmp(new Date(String(a.listed_at)).getTime(), new Date(String(b.listed_at)).getTime()) ||
            tieBreak(a, b)
          ),
      ),
  endingSoon: (rows) =>
    rows
      .filter(
        (r) =>
          r.status === "auction" &&
          r.auction_end != null &&
          new Date(String(r.auction_end)).getTime() > Date.now() &&
          !r.owner_banned,
      )
      .sort(
        (a, b) =>
          cmp(new Date(String(a.auction_end)).getTime(), new Date(String(b.auction_end)).getTime()) ||
          tieBreak(a, b),
      ),
  recentlySold: (rows) =>
    rows
      .filter((r) => r.sold_at != null)
      .sort(
        (a, b) =>
          -(
            cmp(new Date(String(a.sold_at)).getTime(), new Date(String(b.sold_at)).getTime()) ||
            tieBreak(a, b)
          ),
      ),
};

describe("explore items", () => {
  it("pages every sort in the order the tables give, without gaps or repeats, at every page size", async () => {
    const rows = await tokensFromTables();
    for (const [sort, order] of Object.entries(expectedOrder)) {
      const expected = order(rows).map(key);
      expect(expected.length, sort).toBeGreaterThan(0);
      for (const limit of [1, 2, 3, expected.length, 50]) {
        const got = (await allPages(`sort=${sort}`, limit)).map((n) => n._id);
        expect(got, `${sort} limit ${limit}`).toEqual(expected);
      }
    }
  });

  it("pages Recently listed through two listings made in the same second, a page boundary between them", async () => {
    // Block times are whole seconds, but a cursor must not lose what a timestamp holds below them: the later
    // listing ends the first page, and the earlier one, 500 ms before it, begins the next.
    const listed = (await tokensFromTables()).filter((r) => r.listed_at != null).slice(0, 2);
    expect(listed).toHaveLength(2);
    const [later, earlier] = listed as [Any, Any];
    const setListedAt = (row: Any, at: Date | string) =>
      scratch.db.$client.query(
        "UPDATE chain_tokens SET listed_at = $3 WHERE collection = $1 AND token_id = $2",
        [row.collection, row.token_id, at],
      );
    try {
      await setListedAt(later, "2099-01-01 00:00:00.750+00");
      await setListedAt(earlier, "2099-01-01 00:00:00.250+00");
      const firstTwo = (await allPages("sort=recentlyListed", 1)).slice(0, 2).map((n) => n._id);
      expect(firstTwo).toEqual([key(later), key(earlier)]);
    } finally {
      await setListedAt(later, later.listed_at as Date);
      await setListedAt(earlier, earlier.listed_at as Date);
    }
  });

  it("filters by status, price, collection, creator and category as the tables say", async () => {
    const rows = await tokensFromTables();
    const now = Date.now();
    const sorted = (list: Any[]) => expectedOrder.recentlyCreated?.(list).map(key) ?? [];
    const cases: [string, (r: Any) => boolean][] = [
      [
        "status=buyNow",
        (r) => r.status === "fix" && new Date(String(r.expires_at)).getTime() > now && !r.owner_banned,
      ],
      [
        "status=liveAuction",
        (r) => r.status === "auction" && r.end_time != null && new Date(String(r.end_time)).getTime() > now,
      ],
      [
        "status=reserveNotMet",
        (r) => r.status === "auction" && r.auction_kind === "reserve" && r.top_bid == null,
      ],
      ["status=hasOffers", (r) => Number(r.offers) > 0],
      ["status=lazy", (r) => r.lazy === true],
      [
        "minPrice=0.3&maxPrice=0.7",
        (r) =>
          r.price != null &&
          BigInt(String(r.price)) >= parseEther("0.3") &&
          BigInt(String(r.price)) <= parseEther("0.7"),
      ],
      [`collection=${meadow}`, (r) => r.collection === meadow.toLowerCase()],
      [`creator=${carol.address}`, (r) => r.creator === carol.address.toLowerCase()],
      [`category=${photography}`, (r) => r.category_id === photography],
    ];
    for (const [query, keep] of cases) {
      const got = (await allPages(query, 2)).map((n) => n._id);
      expect(got, query).toEqual(sorted(rows.filter(keep)));
    }
    // The cases are not vacuous.
    expect((await allPages("status=buyNow")).map((n) => n.tokenId).sort()).toEqual(["1", "1", "2", "2"]);
    expect((await allPages("status=reserveNotMet")).map((n) => n.tokenId)).toEqual(["4"]);
  });

  it("keeps a price range exactly, both ends included, when the list is sorted by price", async () => {
    // Sorted by price, the bounds are written as row comparisons (see items.ts): each bound is set to a
    // price a token has, so an off-by-one at either end shows.
    const rows = await tokensFromTables();
    const prices = [...new Set(rows.filter((r) => r.price != null).map((r) => BigInt(String(r.price))))].sort(
      (a, b) => cmp(a, b),
    );
    expect(prices.length).toBeGreaterThanOrEqual(3);
    const [low, high] = [prices[1] as bigint, prices[prices.length - 2] as bigint];
    const eth = (wei: bigint) => formatEther(wei);
    for (const sort of ["priceLowToHigh", "priceHighToLow"] as const) {
      for (const [bounds, keep] of [
        [`minPrice=${eth(low)}&maxPrice=${eth(high)}`, (p: bigint) => p >= low && p <= high],
        [`minPrice=${eth(low)}&maxPrice=${eth(low)}`, (p: bigint) => p === low],
        [`minPrice=${eth(high)}`, (p: bigint) => p >= high],
        [`maxPrice=${eth(low)}`, (p: bigint) => p <= low],
      ] as const) {
        for (const category of ["", `&category=${photography}`]) {
          const query = `sort=${sort}&${bounds}${category}`;
          const expected = expectedOrder[sort]?.(
            rows.filter(
              (r) =>
                r.price != null &&
                keep(BigInt(String(r.price))) &&
                (category === "" || r.category_id === photography),
            ),
          );
          expect(
            (await allPages(query, 2)).map((n) => n._id),
            query,
          ).toEqual(expected?.map(key));
        }
      }
    }
  });

  it("keeps each token's copy of its collection's category when the category is set, changed or removed", async () => {
    // Inside a transaction that is rolled back: the triggers of migration 0015, checked on the tables.
    const client = await scratch.db.$client.connect();
    const categoriesOf = async (collection: string) =>
      (
        await client.query(
          "SELECT DISTINCT category_id FROM chain_tokens WHERE collection = $1 ORDER BY category_id NULLS FIRST",
          [collection],
        )
      ).rows.map((r: Any) => r.category_id);
    const meadowAddress = meadow.toLowerCase();
    try {
      await client.query("BEGIN");
      expect(await categoriesOf(meadowAddress)).toEqual([photography]);
      const other = (await client.query("SELECT min(id) AS id FROM categories WHERE id <> $1", [photography]))
        .rows[0].id as number;
      await client.query("UPDATE collection_details SET category_id = $2 WHERE address = $1", [
        meadowAddress,
        other,
      ]);
      expect(await categoriesOf(meadowAddress)).toEqual([other]);
      // A token indexed after the category was set takes it.
      await client.query(
        `INSERT INTO chain_tokens (collection, token_id, owner, holder, status, minted_block, minted_at, mint_tx,
           updated_block) VALUES ($1, 999, $2, $2, 'minted', 1, now(), '0x', 1)`,
        [meadowAddress, carol.address.toLowerCase()],
      );
      expect(await categoriesOf(meadowAddress)).toEqual([other]);
      // A category taken away (set to none), then given back.
      await client.query("UPDATE collection_details SET category_id = NULL WHERE address = $1", [
        meadowAddress,
      ]);
      expect(await categoriesOf(meadowAddress)).toEqual([null]);
      await client.query("UPDATE collection_details SET category_id = $2 WHERE address = $1", [
        meadowAddress,
        other,
      ]);
      expect(await categoriesOf(meadowAddress)).toEqual([other]);
      const details = await client.query("DELETE FROM collection_details WHERE address = $1 RETURNING *", [
        meadowAddress,
      ]);
      expect(details.rowCount).toBe(1);
      expect(await categoriesOf(meadowAddress)).toEqual([null]);
      // Details written after the tokens (a collection registered after its first mints): the tokens follow.
      await client.query("INSERT INTO collection_details (address, category_id) VALUES ($1, $2)", [
        meadowAddress,
        photography,
      ]);
      expect(await categoriesOf(meadowAddress)).toEqual([photography]);
    } finally {
      await client.query("ROLLBACK");
      client.release();
    }
  });

  it("does not list a banned seller's items as buyable, and says so on the item page", async () => {
    const d = driver(t);
    const item = async () =>
      (
        await get<{ data: { nft: { sellerBanned?: boolean; listing: unknown } } }>(
          `/api/nft?creator=${carol.address.toLowerCase()}&collection=Meadow&tokenId=1`,
        )
      ).data.nft;
    expect((await item()).sellerBanned).toBe(false);
    await d.market(admin, "setBanned", [carol.address, true]);
    await index();
    const buyable = await allPages("status=buyNow");
    expect(buyable.every((n) => n.collection.address !== meadow.toLowerCase())).toBe(true);
    // The listing stays on chain; the page is told why it cannot be bought.
    expect(await item()).toMatchObject({
      sellerBanned: true,
      listing: { priceWei: parseEther("0.05").toString() },
    });
    await d.market(admin, "setBanned", [carol.address, false]);
    await index();
    expect((await allPages("status=buyNow")).some((n) => n.collection.address === meadow.toLowerCase())).toBe(
      true,
    );
    expect((await item()).sellerBanned).toBe(false);
  });

  it("refuses a cursor given to another sort, or with a key out of its type's range, with 400", async () => {
    const first = await get<ExploreItemsResponse>("/api/explore?sort=priceLowToHigh&limit=1");
    const cursor = first.data.nextCursor;
    expect(cursor).toBeTruthy();
    expect((await api.call("GET", `/api/explore?sort=priceLowToHigh&limit=1&cursor=${cursor}`)).status).toBe(
      200,
    );
    for (const sort of ["recentlyListed", "recentlyCreated", "mostViewed", "priceHighToLow"]) {
      const response = await api.call("GET", `/api/explore?sort=${sort}&cursor=${cursor}`);
      expect(response.status, sort).toBe(400);
    }
    const forged = (cursor: object) => Buffer.from(JSON.stringify(cursor)).toString("base64url");
    const c = harbour.toLowerCase();
    for (const [sort, k] of [
      ["recentlyCreated", "99999999999999999999"],
      ["mostViewed", "99999999999"],
      ["recentlyListed", "2026-13-45T00:00:00.000Z"],
      ["recentlySold", "yesterday"],
    ]) {
      const response = await api.call(
        "GET",
        `/api/explore?sort=${sort}&cursor=${forged({ s: sort, k, c, t: "1" })}`,
      );
      expect(response.status, `${sort} ${k}`).toBe(400);
    }
  });

  it("shows the card's price line data and hides blocked collections from visitors, not moderators", async () => {
    const nfts = await allPages(`collection=${harbour}`, 50);
    const byId = new Map(nfts.map((n) => [n.tokenId, n]));
    expect(byId.get("1")?.priceWei).toBe(parseEther("1").toString());
    expect(byId.get("3")?.auctionKind).toBe("standard");
    expect(byId.get("3")?.endTime).toBeTruthy();
    expect(byId.get("4")?.endTime).toBeNull();
    expect(byId.get("5")?.offerWei).toBe(parseEther("0.2").toString());
    expect(byId.get("6")?.lastPriceWei).toBe(parseEther("0.7").toString());
    expect(byId.get("6")?.owner).toBe(bob.address.toLowerCase());
    expect(nfts.every((n) => n.collection.address !== blocked.toLowerCase())).toBe(true);
    const visitor = await get<ExploreItemsResponse>(`/api/explore?collection=${blocked}`);
    expect(visitor.data.nfts).toEqual([]);
    const moderator = await get<ExploreItemsResponse>(
      `/api/explore?collection=${blocked}`,
      await api.admin(),
    );
    expect(moderator.data.nfts.map((n) => [n.tokenId, n.blocked])).toEqual([["1", true]]);
  });

  it("answers a bad query value with 400 naming the parameter, never a 500", async () => {
    for (const [query, name] of [
      ["sort=cheapest", "sort"],
      ["status=sold", "status"],
      ["limit=0", "limit"],
      ["limit=51", "limit"],
      ["limit=abc", "limit"],
      ["minPrice=-1", "minPrice"],
      ["maxPrice=1e3", "maxPrice"],
      ["category=x", "category"],
      ["collection=0x123", "collection"],
      ["creator=nobody", "creator"],
      ["cursor=%27%3BDROP%20TABLE", "cursor"],
      [`cursor=${Buffer.from('{"k":"1","c":"x","t":"1"}').toString("base64url")}`, "cursor"],
      ["category=99999999999", "category"],
    ]) {
      const response = await api.call<{ error: { message: string; fields?: Record<string, string> } }>(
        "GET",
        `/api/explore?${query}`,
      );
      expect(response.status, query).toBe(400);
      expect(response.body.error.message, query).toContain(name);
    }
  });
});

describe("explore collections", () => {
  const names = (body: ExploreCollectionsResponse) => body.collections.map((c) => c.name);

  it("sorts, filters and counts as the spec's parameters say, hiding blocked and default collections", async () => {
    const newest = await get<ExploreCollectionsResponse>("/api/explore/collections?sort=newest");
    expect(names(newest)).toEqual(["meadow", "Meadow", "Harbour Lights"]);
    expect(newest.headerData.collections).toBe(3);
    expect(newest.lastPage).toBe(true);
    expect(names(await get("/api/explore/collections?sort=oldest"))).toEqual([
      "Harbour Lights",
      "Meadow",
      "meadow",
    ]);
    expect(names(await get("/api/explore/collections?sort=owners")).at(0)).toBe("Harbour Lights");
    const lowest = await get<ExploreCollectionsResponse>("/api/explore/collections?sort=floorPriceLowest");
    expect(names(lowest)).toEqual(["Meadow", "Harbour Lights", "meadow"]);
    expect(names(await get("/api/explore/collections?sort=floorPriceHighest"))).toEqual([
      "Harbour Lights",
      "Meadow",
      "meadow",
    ]);
    expect(names(await get(`/api/explore/collections?category_web2_ids=${photography}`))).toEqual(["Meadow"]);
    expect(names(await get("/api/explore/collections?minNumberOfArtworks=4"))).toEqual(["Harbour Lights"]);
    expect(names(await get("/api/explore/collections?maxNumberOfArtworks=0"))).toEqual(["meadow"]);
    expect(names(await get("/api/explore/collections?minTotalSales=1"))).toEqual(["Harbour Lights"]);
    expect(names(await get("/api/explore/collections?minFloorPrice=0.1&maxFloorPrice=0.5"))).toEqual([
      "Harbour Lights",
    ]);
    expect(names(await get("/api/explore/collections?collectionType=lazyMint"))).toEqual([]);
    const page1 = await get<ExploreCollectionsResponse>(
      "/api/explore/collections?sort=oldest&limit=2&page=1",
    );
    const page2 = await get<ExploreCollectionsResponse>(
      "/api/explore/collections?sort=oldest&limit=2&page=2",
    );
    expect([names(page1), page1.lastPage, names(page2), page2.lastPage]).toEqual([
      ["Harbour Lights", "Meadow"],
      false,
      ["meadow"],
      true,
    ]);
  });

  it("refuses bad parameters with 400 naming them", async () => {
    for (const [query, name] of [
      ["sort=best", "sort"],
      ["page=0", "page"],
      ["collectionType=normal", "collectionType"],
      ["minFloorPrice=abc", "minFloorPrice"],
      ["minNumberOfArtworks=-1", "minNumberOfArtworks"],
      ["category_web2_ids=1,,2", "category_web2_ids"],
    ]) {
      const response = await api.call<{ error: { message: string } }>(
        "GET",
        `/api/explore/collections?${query}`,
      );
      expect(response.status, query).toBe(400);
      expect(response.body.error.message, query).toContain(name);
    }
  });
});

describe("collection page", () => {
  it("shows the collection by name, its stats from the chain and its tabs", async () => {
    const { data } = await get<CollectionResponse>("/api/collection?name=harbour%20lights");
    expect(data.collection._id).toBe(harbour.toLowerCase());
    expect(data.collection.category?.title).toBe("Painting");
    expect(data.collection.stats).toMatchObject({ artworks: 6, totalSales: 1, owners: 2 });
    expect(data.collection.stats.floorPriceWei).toBe(parseEther("0.3").toString());
    expect(data.collection.stats.highestSaleWei).toBe(parseEther("0.7").toString());
    expect(data.isOwner).toBe(false);
    const tab = async (filter: string) =>
      (await get<CollectionResponse>(`/api/collection?name=Harbour%20Lights&filter=${filter}`)).data.nfts
        .map((n) => n.tokenId)
        .sort();
    expect(await tab("liveAuction")).toEqual(["3", "4"]);
    expect(await tab("buyNow")).toEqual(["1", "2"]);
    expect(await tab("offer")).toEqual(["5"]);
  });

  it("gives a shared name's page to the oldest collection; the other is reached by address", async () => {
    const byName = await get<CollectionResponse>("/api/collection?name=MEADOW");
    expect(byName.data.collection._id).toBe(meadow.toLowerCase());
    expect(byName.data.collection.slug).toBe("Meadow");
    const byAddress = await get<CollectionResponse>(`/api/collection?name=${twin}`);
    expect(byAddress.data.collection.slug).toBe(twin.toLowerCase());
    expect((await api.call("GET", "/api/collection?name=Hidden%20Works")).status).toBe(404);
    expect((await api.call("GET", "/api/collection?name=Nowhere")).status).toBe(404);
  });

  it("lets the owner alone edit it, and keeps a description within the limits", async () => {
    const description = {
      type: "doc",
      paragraphs: [
        {
          runs: [
            { text: "Night ", bold: true },
            { text: "harbours", link: "https://example.com" },
          ],
        },
      ],
    };
    const edit = (user: TestUser, body: Any) => api.call("PUT", "/api/collection/edit", { user, body });
    expect((await edit(users.alice, { id: harbour, description })).status).toBe(403);
    const ok = await edit(users.artist, {
      id: harbour,
      description,
      social: { website: "https://harbour.example" },
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ data: { message: "Your collection updated successfully." } });
    const { data } = await get<CollectionResponse>("/api/collection?name=Harbour%20Lights", users.artist);
    expect(data.isOwner).toBe(true);
    expect(data.collection.description).toEqual(description);
    expect(data.collection.social.website).toBe("https://harbour.example");
    const tooLong = { type: "doc", paragraphs: [{ runs: [{ text: "x".repeat(1001) }] }] };
    const hostile = { type: "doc", paragraphs: [{ runs: [{ text: "x", link: "javascript:alert(1)" }] }] };
    const html = { type: "doc", paragraphs: [{ runs: [{ text: "x" }], html: "<script>" }] };
    for (const bad of [tooLong, hostile, html]) {
      expect((await edit(users.artist, { id: harbour, description: bad })).status).toBe(400);
    }
    expect((await edit(users.artist, { id: harbour, logo: "https://evil.example/x.png" })).status).toBe(400);
  });

  it("toggles a favourite for others (twice in a row changes nothing when the state is given), not for the owner", async () => {
    const favorite = (user: TestUser, body: Any) =>
      api.call<{ data: { favorite: boolean; favorites: number } }>("POST", "/api/collection/favorite", {
        user,
        body,
      });
    expect((await favorite(users.artist, { collectionId: harbour })).status).toBe(403);
    expect(
      (await api.call("POST", "/api/collection/favorite", { body: { collectionId: harbour } })).status,
    ).toBe(401);
    expect((await favorite(users.alice, { collectionId: harbour, favorite: true })).body.data).toEqual({
      favorite: true,
      favorites: 1,
    });
    expect((await favorite(users.alice, { collectionId: harbour, favorite: true })).body.data.favorites).toBe(
      1,
    );
    expect((await favorite(users.bob, { collectionId: harbour })).body.data).toEqual({
      favorite: true,
      favorites: 2,
    });
    const page = await get<CollectionResponse>("/api/collection?name=Harbour%20Lights", users.alice);
    expect([page.data.isFavorite, page.data.collection.favorites]).toEqual([true, 2]);
    expect((await favorite(users.bob, { collectionId: harbour })).body.data).toEqual({
      favorite: false,
      favorites: 1,
    });
    expect((await favorite(users.alice, { collectionId: blocked })).status).toBe(404);
  });
});

describe("item views and favourites", () => {
  const view = (tokenId: string, user?: TestUser, collection: string = harbour) =>
    api.call<{ data: { counted: boolean; views: number } }>("POST", "/api/nft/view", {
      user,
      body: { collection, tokenId },
    });
  const favorite = (user: TestUser | undefined, tokenId: string, wanted?: boolean) =>
    api.call<{ data: { favorite: boolean; favorites: number } }>("POST", "/api/nft/favorite", {
      user,
      body: { collection: harbour, tokenId, ...(wanted === undefined ? {} : { favorite: wanted }) },
    });

  it("counts one view per viewer a day, and orders Most viewed by the counts", async () => {
    expect((await view("2", users.alice)).body.data).toEqual({ counted: true, views: 1 });
    expect((await view("2", users.alice)).body.data).toEqual({ counted: false, views: 1 });
    expect((await view("2", users.bob)).body.data).toEqual({ counted: true, views: 2 });
    // A visitor without a wallet counts once too (by a hash of their IP).
    expect((await view("2")).body.data).toEqual({ counted: true, views: 3 });
    expect((await view("2")).body.data.counted).toBe(false);
    const sameTime = await Promise.all([
      view("4", users.carol),
      view("4", users.carol),
      view("4", users.carol),
    ]);
    expect(sameTime.filter((r) => r.body.data.counted)).toHaveLength(1);
    expect((await view("99")).status).toBe(404);
    expect((await view("1", undefined, blocked)).status).toBe(404);
    expect((await view("abc")).status).toBe(400);

    const expected = expectedOrder.mostViewed?.(await tokensFromTables()).map(key) ?? [];
    const h = harbour.toLowerCase();
    expect(expected.slice(0, 2)).toEqual([`${h}:2`, `${h}:4`]);
    for (const limit of [1, 2, 5]) {
      expect((await allPages("sort=mostViewed", limit)).map((n) => n._id)).toEqual(expected);
    }
  });

  it("tells the owner once a day per person that their item was favourited, never for their own", async () => {
    const favouritedOne = async (user: TestUser) =>
      (
        await api.call<{ data: { notificationsTemp: { kind: string; message: string }[] } }>(
          "GET",
          "/api/profile/notifications",
          { user },
        )
      ).body.data.notificationsTemp.filter(
        (n) => n.kind === "favorite" && n.message.includes(" favourited "),
      );
    await favorite(users.carol, "1", true);
    await favorite(users.carol, "1", false);
    await favorite(users.carol, "1", true);
    const notes = await favouritedOne(users.artist);
    expect(notes).toHaveLength(1);
    // A notification is a link to the page it speaks of: the item's page.
    expect(notes[0]).toMatchObject({ link: `/${artist.address.toLowerCase()}/Harbour%20Lights/1` });
    // Minted without Easel's metadata: named as its page names it, by collection and number.
    expect(notes[0]?.message).toMatch(/ favourited your “Harbour Lights #1”\.$/);
    // The owner favouriting their own item is told nothing.
    await favorite(users.artist, "1", true);
    expect(await favouritedOne(users.artist)).toHaveLength(1);
    await favorite(users.artist, "1", false);
    await favorite(users.carol, "1", false);
    // With its metadata known, the artwork's own name.
    const { rows } = await scratch.db.$client.query(
      `INSERT INTO item_metadata (cid, creator, collection, name, description, royalty, media_cid)
       SELECT cid, creator, collection, 'Lights at low tide', '', 10, 'bafkreimedia' FROM chain_tokens
       WHERE collection = $1 AND token_id = 1 RETURNING cid`,
      [harbour.toLowerCase()],
    );
    try {
      await favorite(users.bob, "1", true);
      const named = await favouritedOne(users.artist);
      expect(named).toHaveLength(2);
      expect(named[0]?.message).toMatch(/ favourited your “Lights at low tide”\.$/);
    } finally {
      await favorite(users.bob, "1", false);
      await scratch.db.$client.query("DELETE FROM item_metadata WHERE cid = $1", [rows[0]?.cid]);
    }
  });

  it("favourites an item once per person, toggles, and shows the heart to that person only", async () => {
    expect((await favorite(undefined, "3")).status).toBe(401);
    expect((await favorite(users.alice, "3", true)).body.data).toEqual({ favorite: true, favorites: 1 });
    expect((await favorite(users.alice, "3", true)).body.data).toEqual({ favorite: true, favorites: 1 });
    const twice = await Promise.all([favorite(users.bob, "3"), favorite(users.bob, "3")]);
    // Two toggles at once: one on, one off, never a count of 3.
    expect(twice.map((r) => r.body.data.favorite).sort()).toEqual([false, true]);
    expect((await favorite(users.bob, "5")).body.data).toEqual({ favorite: true, favorites: 1 });
    expect((await favorite(users.alice, "3", false)).body.data).toEqual({ favorite: false, favorites: 0 });
    expect((await favorite(users.alice, "3", true)).body.data.favorites).toBe(1);
    expect((await favorite(users.alice, "12345")).status).toBe(404);

    const rows = await tokensFromTables();
    expect(rows.find((r) => key(r) === `${harbour.toLowerCase()}:3`)?.favorites).toBe(1);
    const expected = expectedOrder.mostFavorited?.(rows).map(key) ?? [];
    expect((await allPages("sort=mostFavorited", 2)).map((n) => n._id)).toEqual(expected);
    const cards = async (user?: TestUser) =>
      (await get<ExploreItemsResponse>(`/api/explore?collection=${harbour}&limit=50`, user)).data.nfts;
    const mine = (list: NftCard[]) => list.filter((n) => n.isFavorite).map((n) => n.tokenId);
    expect(mine(await cards(users.alice))).toEqual(["3"]);
    expect(mine(await cards(users.bob))).toEqual(["5"]);
    expect(mine(await cards())).toEqual([]);
  });
});

describe("ETH price", () => {
  it("reads USD per ETH from the chain's price feed", async () => {
    const { data } = await get<{ data: { usd: string; updatedAt: string } }>("/api/nft/eth-price");
    expect(data.usd).toBe("3000");
    expect(Number.isFinite(Date.parse(data.updatedAt))).toBe(true);
  });
});

describe("collection activity and statistics", () => {
  it("lists the chain's activity newest first, page by page, and by kind", async () => {
    const h = harbour.toLowerCase();
    const { rows } = await scratch.db.$client.query(
      `SELECT kind, token_id::text, tx_hash FROM chain_activity WHERE collection = $1
       ORDER BY block_number DESC, log_index DESC, seq DESC`,
      [h],
    );
    const expected = rows.map((r: Any) => `${r.kind}:${r.token_id}:${r.tx_hash}`);
    expect(expected.length).toBeGreaterThan(10);
    for (const limit of [1, 4, 50]) {
      const got: string[] = [];
      let cursor: string | null = null;
      do {
        const path: string = `/api/collection/activity?id=${h}&limit=${limit}${cursor ? `&cursor=${cursor}` : ""}`;
        const { data } = await get<CollectionActivityResponse>(path);
        got.push(...data.activity.map((a) => `${a.kind}:${a.tokenId}:${a.txHash}`));
        cursor = data.nextCursor;
      } while (cursor);
      expect(got, `limit ${limit}`).toEqual(expected);
    }
    const sales = (await get<CollectionActivityResponse>(`/api/collection/activity?id=${h}&kind=sale`)).data;
    expect(sales.activity.map((a) => [a.kind, a.tokenId, a.priceWei, a.itemName])).toEqual([
      ["sale", "6", parseEther("0.7").toString(), "Harbour Lights #6"],
    ]);
    const bids = (await get<CollectionActivityResponse>(`/api/collection/activity?id=${h}&kind=bid`)).data;
    expect(bids.activity.every((a) => a.kind === "bid" || a.kind === "outbid")).toBe(true);
    expect(bids.activity).toHaveLength(1);
  });

  it("charts volume and the floor per day, and refuses bad ranges and hidden collections", async () => {
    const h = harbour.toLowerCase();
    const week = (await get<CollectionHistoryResponse>(`/api/collection/stats?id=${h}&range=7d`)).data.days;
    expect(week).toHaveLength(7);
    const today = week.at(-1);
    expect(today?.day).toBe(new Date().toISOString().slice(0, 10));
    // Sold today: token 6 at 0.7 ETH. Still listed: 1 ETH and 0.3 ETH, so the floor is 0.3 ETH.
    expect(today).toMatchObject({ volumeWei: parseEther("0.7").toString(), sales: 1 });
    expect(today?.floorWei).toBe(parseEther("0.3").toString());
    expect(week.slice(0, -1).every((d) => d.volumeWei === "0" && d.floorWei === null)).toBe(true);
    const all = (await get<CollectionHistoryResponse>(`/api/collection/stats?id=${h}&range=all`)).data.days;
    expect(all.length).toBeGreaterThanOrEqual(1);
    expect(all.at(-1)).toEqual(today);

    const status = async (path: string) => (await api.call("GET", path)).status;
    expect(await status(`/api/collection/stats?id=${h}&range=1y`)).toBe(400);
    expect(await status(`/api/collection/stats?id=nope`)).toBe(400);
    expect(await status(`/api/collection/activity?id=${h}&kind=everything`)).toBe(400);
    expect(await status(`/api/collection/activity?id=${h}&cursor=bad`)).toBe(400);
    expect(await status(`/api/collection/stats?id=${blocked.toLowerCase()}`)).toBe(404);
    expect(await status(`/api/collection/activity?id=0x${"1".repeat(40)}`)).toBe(404);
  });
});

describe("people by name", () => {
  /** Counts every statement `run` sends through the scratch database's connections. */
  async function statements<T>(run: () => Promise<T>): Promise<{ result: T; count: number }> {
    const db = scratch.db;
    let count = 0;
    const repeated = db.$repeated.execute;
    const execute = db.execute;
    const query = db.$client.query;
    const counted =
      <F extends (...args: never[]) => unknown>(f: F, self: unknown) =>
      (...args: Parameters<F>) => {
        count++;
        return f.apply(self, args);
      };
    db.$repeated.execute = counted(repeated, db.$repeated) as typeof repeated;
    db.execute = counted(execute, db) as typeof execute;
    db.$client.query = counted(query as (...args: never[]) => unknown, db.$client) as typeof query;
    try {
      return { result: await run(), count };
    } finally {
      db.$repeated.execute = repeated;
      db.execute = execute;
      db.$client.query = query;
    }
  }

  it("come with the rows that name them, in the rows' own query: activity, offers, the top bidder", async () => {
    const h = harbour.toLowerCase();
    const who = { bob: bob.address.toLowerCase(), alice: alice.address.toLowerCase() };
    const q = (text: string, values: unknown[]) => scratch.db.$client.query(text, values);
    const { rows: before } = await q(
      "SELECT address, name, username, ens FROM profiles WHERE address = ANY($1::text[])",
      [[who.bob, who.alice]],
    );
    // Bob has a display name; Alice only an ENS name; the artist's profile has neither. Token 6 has Easel's
    // metadata, so its rows carry its title.
    await q("UPDATE profiles SET name = 'Bob Marlowe' WHERE address = $1", [who.bob]);
    await q("UPDATE profiles SET name = NULL, username = NULL, ens = 'alice.eth' WHERE address = $1", [
      who.alice,
    ]);
    const { rows: meta } = await q(
      `INSERT INTO item_metadata (cid, creator, collection, name, description, royalty, media_cid)
       SELECT cid, creator, collection, 'Night ferry', '', 10, 'bafkreimedia' FROM chain_tokens
       WHERE collection = $1 AND token_id = 6 RETURNING cid`,
      [h],
    );
    try {
      const { result: page, count } = await statements(() =>
        collectionActivity(scratch.db, { address: h, name: "Harbour Lights" }, { limit: 50 }),
      );
      expect(count).toBe(1);
      const sale = page.activity.find((a) => a.kind === "sale");
      expect(sale).toMatchObject({
        itemName: "Night ferry",
        fromPerson: { address: artist.address.toLowerCase(), name: null, ens: null },
        toPerson: { address: who.bob, name: "Bob Marlowe", ens: null },
      });
      expect(page.activity.find((a) => a.kind === "offer")?.fromPerson).toEqual({
        address: who.alice,
        name: null,
        username: null,
        ens: "alice.eth",
      });
      // Through the API too, and on the item page: the top bidder and the offers with their names.
      const api = (await get<CollectionActivityResponse>(`/api/collection/activity?id=${h}&kind=sale`)).data;
      expect(api.activity[0]?.toPerson?.name).toBe("Bob Marlowe");
      const item = async (id: number) =>
        (
          await get<{ data: { nft: Any & { auction: Any; offers: Any[] }; activity: Any[] } }>(
            `/api/nft?creator=${artist.address.toLowerCase()}&collection=${encodeURIComponent("Harbour Lights")}&tokenId=${id}`,
          )
        ).data;
      expect((await item(3)).nft.auction.topBidderPerson).toMatchObject({
        address: who.bob,
        name: "Bob Marlowe",
      });
      const offered = await item(5);
      expect(offered.nft.offers[0]?.person).toMatchObject({ address: who.alice, ens: "alice.eth" });
      expect(offered.activity.find((a) => a.kind === "offer")?.fromPerson).toMatchObject({
        ens: "alice.eth",
      });
    } finally {
      await q("DELETE FROM item_metadata WHERE cid = $1", [meta[0]?.cid]);
      for (const row of before as Any[])
        await q("UPDATE profiles SET name = $2, username = $3, ens = $4 WHERE address = $1", [
          row.address,
          row.name,
          row.username,
          row.ens,
        ]);
    }
  });
});

describe("registering a collection", () => {
  it("trusts only the chain: owner, name, symbol, kind and category must match", async () => {
    const register = (user: TestUser, body: Any) => api.call("POST", "/api/collection", { user, body });
    const base = {
      contract_address: meadow,
      name: "Meadow",
      symbol: "MDW",
      collectionType: "standard",
      category_web2_id: photography,
    };
    expect((await register(users.artist, base)).status).toBe(403);
    expect((await register(users.carol, { ...base, name: "Meadows" })).status).toBe(400);
    expect((await register(users.carol, { ...base, collectionType: "lazy" })).status).toBe(400);
    expect((await register(users.carol, { ...base, category_web2_id: painting })).status).toBe(400);
    expect((await register(users.carol, { ...base, name: "M" })).status).toBe(400);
    expect((await register(users.carol, base)).status).toBe(200);
  });

  it("checks a new name against every collection, ignoring case", async () => {
    const check = (name: string) => api.call("POST", "/api/collection/check_name", { body: { name } });
    expect((await check("HARBOUR LIGHTS")).status).toBe(400);
    expect((await check("Brand New")).status).toBe(200);
    expect((await check("ab")).status).toBe(400);
    expect((await check("Кириллица")).status).toBe(400);
  });
});

describe("lazy collections", () => {
  type Voucher = { data: { voucher: Any & { deadline: string; maxSupply: number } } };
  const voucherPath = (name: string, symbol = "LZY") =>
    `/api/collection/lazy-voucher?name=${encodeURIComponent(name)}&symbol=${symbol}&catWeb2_id=${painting}&maximumSupply=3`;

  it("signs a voucher only within the account's permission, and the factory accepts it once", async () => {
    const ask = (user: TestUser | undefined, name: string) =>
      api.call<Voucher>("GET", voucherPath(name), { user });
    expect((await ask(undefined, "Lazy Lane")).status).toBe(401);
    // The factory creates collections for verified artists only: an unverified account gets no voucher.
    const notArtist = await ask(users.alice, "Lazy Lane");
    expect(notArtist.status).toBe(403);
    expect(JSON.stringify(notArtist.body)).toContain("Only verified artists can create collections");
    const lazyPermission = async () =>
      (
        await api.call<{ profile: { permission: Any } }>("GET", "/api/auth/session", {
          user: users.alice,
        })
      ).body.profile.permission;
    expect(await lazyPermission()).toEqual({
      collection: { lazyCollection: 0, lazyCollectionsLeft: 0 },
      mint: false,
    });
    const d = driver(t);
    await d.market(admin, "setArtistVerified", [alice.address, true]);
    await index();
    // No permission yet: the standard type only.
    const refused = await ask(users.alice, "Lazy Lane");
    expect(refused.status).toBe(403);
    expect(JSON.stringify(refused.body)).toContain("may not create lazy collections");

    const moderator = await api.admin();
    const grant = (lazyCollections: number, user = moderator) =>
      api.call("PUT", `/api/admin/users/${alice.address.toLowerCase()}/permission`, {
        user,
        body: { lazyCollections },
      });
    expect((await grant(1, users.bob)).status).toBe(403);
    expect((await grant(-1)).status).toBe(400);
    expect((await grant(1)).status).toBe(200);
    expect((await lazyPermission()).collection).toEqual({ lazyCollection: 1, lazyCollectionsLeft: 1 });

    // Two requests at once for the one allowed collection: one voucher.
    const [first, second] = await Promise.all([ask(users.alice, "Lazy Lane"), ask(users.alice, "Lazy Row")]);
    expect([first.status, second.status].sort()).toEqual([200, 403]);
    const granted = first.status === 200 ? first : second;
    const { voucher } = granted.body.data;
    expect(voucher).toMatchObject({ owner: alice.address.toLowerCase(), maxSupply: 3, category: "Painting" });
    // The voucher out holds the allowance: the session says none is left, so the dialog stops offering Lazy.
    expect((await lazyPermission()).collection).toEqual({ lazyCollection: 1, lazyCollectionsLeft: 0 });

    const onChain = { ...voucher, deadline: BigInt(voucher.deadline) };
    // The voucher is this wallet's alone.
    await expect(
      d.send(bob, t.factory, easelFactoryAbi, "createLazyCollection", [onChain]),
    ).rejects.toThrow();
    await d.send(alice, t.factory, easelFactoryAbi, "createLazyCollection", [onChain]);
    await expect(
      d.send(alice, t.factory, easelFactoryAbi, "createLazyCollection", [onChain]),
    ).rejects.toThrow();
    await index();
    // Used: the allowance is spent until a moderator grants more.
    expect((await ask(users.alice, "Lazy Again")).status).toBe(403);
    expect((await lazyPermission()).collection).toEqual({ lazyCollection: 1, lazyCollectionsLeft: 0 });
    expect((await grant(2)).status).toBe(200);
    expect((await lazyPermission()).collection).toEqual({ lazyCollection: 2, lazyCollectionsLeft: 1 });
    expect((await ask(users.alice, "Lazy Again")).status).toBe(200);
    expect((await lazyPermission()).collection).toEqual({ lazyCollection: 2, lazyCollectionsLeft: 0 });
    // An allowance lowered below what is used leaves none, never a negative number.
    expect((await grant(1)).status).toBe(200);
    expect((await lazyPermission()).collection).toEqual({ lazyCollection: 1, lazyCollectionsLeft: 0 });
    // Verified no more, with an allowance left: refused again, before anything is held.
    expect((await grant(5)).status).toBe(200);
    await d.market(admin, "setArtistVerified", [alice.address, false]);
    await index();
    expect((await ask(users.alice, "Lazy Later")).status).toBe(403);
    expect((await lazyPermission()).collection).toEqual({ lazyCollection: 5, lazyCollectionsLeft: 3 });
    expect((await grant(1)).status).toBe(200);
  });

  it("refuses a taken or reserved name and a retired or unknown category", async () => {
    const moderator = await api.admin();
    await api.call("PUT", `/api/admin/users/${bob.address.toLowerCase()}/permission`, {
      user: moderator,
      body: { lazyCollections: 5 },
    });
    const ask = async (path: string) => {
      const response = await api.call("GET", path, { user: users.bob });
      return `${response.status} ${JSON.stringify(response.body)}`;
    };
    expect(await ask(voucherPath("harbour lights"))).toContain("already taken");
    await driver(t).send(admin, t.factory, easelFactoryAbi, "setReserved", ["Official", true]);
    expect(await ask(voucherPath("OFFICIAL"))).toMatch(/^400 .*reserved/);
    expect(await ask(voucherPath("Fine Name", "official"))).toMatch(/^400 .*symbol/);
    expect(await ask(voucherPath("Fine Name").replace(`catWeb2_id=${painting}`, "catWeb2_id=99999"))).toMatch(
      /^400 .*category/,
    );
    expect(await ask(`${voucherPath("Fine Name")}0000000`)).toMatch(/^400 .*maximumSupply/);
  });
});

describe("profile", () => {
  it("says whether the market verified the account as an artist, as indexed from the chain", async () => {
    const verified = async (address: string) =>
      (await api.call<{ data: { verifiedArtist: boolean } }>("GET", `/api/profile?userkey=${address}`)).body
        .data.verifiedArtist;
    expect(await verified(carol.address)).toBe(true);
    expect(await verified(users.alice.address)).toBe(false);
    // An address that never signed in has a profile too.
    expect(await verified("0x00000000000000000000000000000000000000aa")).toBe(false);
    const d = driver(t);
    await d.market(admin, "setArtistVerified", [carol.address, false]);
    await index();
    expect(await verified(carol.address)).toBe(false);
    await d.market(admin, "setArtistVerified", [carol.address, true]);
    await index();
    expect(await verified(carol.address)).toBe(true);
  });
});

describe("search", () => {
  const search = (q: string) => get<SearchResponse>(`/api/search?searchItem=${encodeURIComponent(q)}`);

  it("ranks the exact name first, then prefixes, then typos; finds addresses and items", async () => {
    expect((await search("meadow")).data.collections.map((c) => c.slug)).toEqual([
      "Meadow",
      twin.toLowerCase(),
    ]);
    expect((await search("harb")).data.collections.map((c) => c.name)).toEqual(["Harbour Lights"]);
    expect((await search("harbuor lights")).data.collections.map((c) => c.name)).toEqual(["Harbour Lights"]);
    // Words anywhere in the name, in any order, typos corrected first.
    expect((await search("lights")).data.collections.map((c) => c.name)).toEqual(["Harbour Lights"]);
    expect((await search("lihgts harbour")).data.collections.map((c) => c.name)).toEqual(["Harbour Lights"]);
    expect((await search(harbour.slice(0, 12))).data.collections.map((c) => c._id)).toEqual([
      harbour.toLowerCase(),
    ]);
    expect((await search("Harbour Lights #3")).data.items.map((i) => i.tokenId)).toEqual(["3"]);
    expect((await search(carol.address)).data.items.map((i) => i.collection.name).sort()).toEqual([
      "Meadow",
      "Meadow",
      "Meadow",
    ]);
    // Names compared whole (trigram similarity) only for a word that is neither a names' word nor near one:
    // a known word and a letter still being typed find only names that have both.
    expect((await search("harbour lxqzv")).data.collections.map((c) => c.name)).toEqual(["Harbour Lights"]);
    expect((await search("harbour q")).data.collections).toEqual([]);
    expect((await search("hidden")).data.collections).toEqual([]);
    // A moderator finds the blocked collection; the statement written for moderators is not a visitor's.
    const moderator = await api.admin();
    const moderatorSearch = (q: string) =>
      get<SearchResponse>(`/api/search?searchItem=${encodeURIComponent(q)}`, moderator);
    expect((await moderatorSearch("hidden")).data.collections.map((c) => c.name)).toEqual(["Hidden Works"]);
    expect((await moderatorSearch("hiden works")).data.collections.map((c) => c.name)).toEqual([
      "Hidden Works",
    ]);
    expect((await search("hidden")).data.collections).toEqual([]);
    expect((await search("hiden works")).data.collections).toEqual([]);
    expect((await search("zzzzqqq")).data).toEqual({ collections: [], items: [], profile: [] });
  });

  it("finds profiles by username, display name with a typo, and address", async () => {
    await api.call("PUT", "/api/profile", {
      user: users.alice,
      body: { username: "alice_paints", name: "Alice Moreau" },
    });
    expect((await search("alice_p")).data.profile.map((p) => p.username)).toEqual(["alice_paints"]);
    expect((await search("alice moraeu")).data.profile.map((p) => p.username)).toEqual(["alice_paints"]);
    // A typo in a later word: corrected against the names' words ("moreau"), then found inside the name.
    expect((await search("moraeu")).data.profile.map((p) => p.username)).toEqual(["alice_paints"]);
    // Words come from usernames too, as they change.
    expect((await search("piants")).data.profile.map((p) => p.username)).toEqual(["alice_paints"]);
    expect((await search(alice.address.slice(0, 10))).data.profile.map((p) => p.address)).toEqual([
      alice.address.toLowerCase(),
    ]);
  });

  it("finds items by their own name, by prefix, by a word anywhere and through a typo, never hidden ones", async () => {
    // Tokens whose CIDs no other token has (the test mints number n with CID n in every collection); the
    // last one blocked by a moderator.
    const named = [
      [harbour, 4, "Rain on Glass"],
      [harbour, 5, "Rainfall over Moonlit Water"],
      [harbour, 6, "Rain in Hiding"],
    ] as const;
    const d = driver(t);
    await d.market(admin, "setTokenBlocked", [harbour, 6n, true]);
    await index();
    const cids: string[] = [];
    for (const [collection, tokenId, name] of named) {
      const { rows } = await scratch.db.$client.query(
        `INSERT INTO item_metadata (cid, creator, collection, name, description, royalty, media_cid)
         SELECT cid, creator, collection, $3, '', 10, 'bafkreimedia' FROM chain_tokens
         WHERE collection = $1 AND token_id = $2 RETURNING cid`,
        [collection.toLowerCase(), tokenId, name],
      );
      cids.push(String(rows[0]?.cid));
    }
    const itemNames = async (q: string) => (await search(q)).data.items.map((i) => i.name);
    try {
      // Prefixes of the name, exact name first; the blocked collection's item stays hidden.
      expect(await itemNames("rain")).toEqual(["Rain on Glass", "Rainfall over Moonlit Water"]);
      expect(await itemNames("Rain on Glass")).toEqual(["Rain on Glass"]);
      expect((await search("rain on g")).data.items[0]).toMatchObject({
        tokenId: "4",
        collection: { address: harbour.toLowerCase(), name: "Harbour Lights" },
      });
      // A word anywhere in the name, and typos corrected against the names' words (learnt from uploads).
      expect(await itemNames("glass")).toEqual(["Rain on Glass"]);
      expect(await itemNames("moonlit water")).toEqual(["Rainfall over Moonlit Water"]);
      expect(await itemNames("rain on glasss")).toEqual(["Rain on Glass"]);
      expect(await itemNames("watre")).toEqual(["Rainfall over Moonlit Water"]);
      expect(await itemNames("moonlti")).toEqual(["Rainfall over Moonlit Water"]);
      expect(await itemNames("hiding")).toEqual([]);
      // A name changed (a moderator's correction) is found by its new words.
      await scratch.db.$client.query("UPDATE item_metadata SET name = 'Storm over Glass' WHERE cid = $1", [
        cids[0],
      ]);
      expect(await itemNames("storm")).toEqual(["Storm over Glass"]);
      expect(await itemNames("storn")).toEqual(["Storm over Glass"]);
      // Collections are still found by name, items still by collection name and number.
      expect((await search("harb")).data.collections.map((c) => c.name)).toEqual(["Harbour Lights"]);
      expect((await search("Harbour Lights #4")).data.items.map((i) => i.name)).toEqual(["Storm over Glass"]);
    } finally {
      await scratch.db.$client.query("DELETE FROM item_metadata WHERE cid = ANY($1)", [cids]);
      await d.market(admin, "setTokenBlocked", [harbour, 6n, false]);
      await index();
    }
  });

  it("refuses an empty or overlong search with 400", async () => {
    expect((await api.call("GET", "/api/search?searchItem=")).status).toBe(400);
    expect((await api.call("GET", `/api/search?searchItem=${"a".repeat(101)}`)).status).toBe(400);
    expect((await api.call("GET", "/api/search?searchItem=%25%25%5F")).status).toBe(200);
  });
});

describe("home and categories", () => {
  it("shows the most active collections until moderators pick some", async () => {
    const before = await get<HomeResponse>("/api/home");
    expect(before.data.picked).toBe(false);
    expect(before.data.collections.map((c) => c.name)).toEqual(["Harbour Lights", "Meadow"]);
    expect(before.data.collections[0]?.nfts.length).toBe(6);
    const moderator = await api.admin();
    const feature = await api.call("PUT", `/api/admin/collections/${meadow}/featured`, {
      user: moderator,
      body: { featured: true },
    });
    expect(feature.status).toBe(200);
    expect(
      (
        await api.call("PUT", `/api/admin/collections/${meadow}/featured`, {
          user: users.alice,
          body: { featured: true },
        })
      ).status,
    ).toBe(403);
    const after = await get<HomeResponse>("/api/home");
    expect([after.data.picked, after.data.collections.map((c) => c.name)]).toEqual([true, ["Meadow"]]);
  });

  it("lets moderators add, rename and retire categories", async () => {
    const moderator = await api.admin();
    const added = await api.call<{ data: { category: { _id: number } } }>("POST", "/api/admin/categories", {
      user: moderator,
      body: { title: "Glitch" },
    });
    expect(added.status).toBe(200);
    expect(
      (await api.call("POST", "/api/admin/categories", { user: moderator, body: { title: "glitch" } }))
        .status,
    ).toBe(400);
    expect(
      (await api.call("POST", "/api/admin/categories", { user: users.alice, body: { title: "Spam" } }))
        .status,
    ).toBe(403);
    const id = added.body.data.category._id;
    expect((await api.call("PUT", `/api/admin/categories/${id}`, { user: moderator, body: {} })).status).toBe(
      400,
    );
    expect(
      (
        await api.call("PUT", "/api/admin/categories/99999999999", {
          user: moderator,
          body: { retired: true },
        })
      ).status,
    ).toBe(400);
    await api.call("PUT", `/api/admin/categories/${id}`, {
      user: moderator,
      body: { title: "Glitch Art", retired: true },
    });
    const offered = await get<{ data: { category_web2: { title: string }[] } }>("/api/category-web2");
    expect(offered.data.category_web2.map((c) => c.title)).not.toContain("Glitch Art");
    const all = await get<{ data: { category_web2: { title: string }[] } }>("/api/category-web2?all=true");
    expect(all.data.category_web2.map((c) => c.title)).toContain("Glitch Art");
  });
});

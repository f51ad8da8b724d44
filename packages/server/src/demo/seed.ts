/**
 * The demo marketplace of a first `npm start`: artists, collectors and a moderator with profiles, collections
 * of drawn artworks, minted and lazy items, listings, auctions in every state, offers, five weeks of sales,
 * follows and favourites. Everything goes through the running API (signed in with SIWE, uploads checked
 * like anyone's) and real transactions on the local chain, which the indexer reads like any others.
 *
 * The chain's clock starts five weeks back (the launcher sets it before deploying) and the seed moves it
 * forward through the story, ending at the present, so the sales history spans several weeks and the
 * auctions' ends fall where the story wants them.
 */
import { cidToHex, SESSION_COOKIE, SIWE_STATEMENT } from "@easel/common";
import { easelCollectionAbi, easelFactoryAbi, easelMarketAbi } from "@easel/contracts";
import {
  type Address,
  createPublicClient,
  createWalletClient,
  type Hash,
  http,
  type PublicClient,
  parseAbi,
  parseEther,
  parseEventLogs,
  type TransactionReceipt,
} from "viem";
import { type HDAccount, mnemonicToAccount } from "viem/accounts";
import { createSiweMessage } from "viem/siwe";
import { localChain } from "../chain/client.ts";
import { ANVIL_MNEMONIC } from "../embedded/anvil.ts";
import { drawArtwork, drawAvatar, drawBanner } from "./art.ts";
import { drawLoop, drawLoopPoster, drawSketchbook, drawSketchbookPoster } from "./media.ts";
import { ARTISTS, COLLECTIONS, COLLECTORS, type DemoPerson, LAZY_COLLECTION, MODERATOR } from "./people.ts";

/** How far back the chain's clock starts: the oldest sale is about this old. */
export const DEMO_HISTORY_DAYS = 36;

const DAY = 86_400;
const HOUR = 3_600;
const eth = (value: string) => parseEther(value);

export type DemoOptions = {
  apiUrl: string;
  rpcUrl: string;
  contracts: { market: Address; factory: Address; ethUsdFeed?: Address };
  log?: (message: string) => void;
  /** Stops the seed: requests in flight are cancelled and no step starts after it (the seed rejects). */
  signal?: AbortSignal;
};

export type DemoSummary = {
  people: number;
  collections: { name: string; address: Address }[];
  mints: number;
  lazyItems: number;
  sales: number;
  /** A settled auction: its token and the transaction that completed it (payouts can be checked there). */
  settledAuction: { collection: Address; tokenId: string; txHash: Hash; seller: Address; price: string };
  seconds: number;
};

type Session = { cookie: string; person: DemoPerson; account: HDAccount };
type Token = { collection: Address; tokenId: bigint; artist: number };

export async function seedDemo(options: DemoOptions): Promise<DemoSummary> {
  const started = Date.now();
  const log = options.log ?? (() => {});
  const { market, factory } = options.contracts;
  const { signal } = options;
  const chain = { ...localChain, rpcUrls: { default: { http: [options.rpcUrl] } } };
  const transport = http(options.rpcUrl, { fetchOptions: { signal } });
  const client = createPublicClient({ chain, transport, pollingInterval: 50 }) as PublicClient;
  const accounts = Array.from({ length: 10 }, (_, index) =>
    mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: index }),
  );
  const wallets = accounts.map((account) => createWalletClient({ account, chain, transport }));
  const account = (index: number) => accounts[index] as HDAccount;

  // --- the chain --------------------------------------------------------------------------------

  async function send(
    who: number,
    address: Address,
    abi: readonly unknown[],
    functionName: string,
    args: readonly unknown[],
    value?: bigint,
  ): Promise<TransactionReceipt> {
    signal?.throwIfAborted();
    const hash = await (wallets[who] as (typeof wallets)[number]).writeContract({
      address,
      abi: abi as never,
      functionName: functionName as never,
      args: args as never,
      value: value as never,
      chain,
      account: account(who),
    } as never);
    const receipt = await client.waitForTransactionReceipt({ hash });
    signal?.throwIfAborted();
    if (receipt.status !== "success") throw new Error(`demo: ${functionName} reverted (${hash})`);
    return receipt;
  }
  const onMarket = (who: number, fn: string, args: readonly unknown[], value?: bigint) =>
    send(who, market, easelMarketAbi, fn, args, value);
  const rpc = (method: string, params: unknown[]) =>
    client.request({ method: method as never, params: params as never });
  /** Moves the chain's clock to `unixSeconds` (the next block's time). */
  const chainNow = async () => Number((await client.getBlock()).timestamp);
  const setChainTime = async (unixSeconds: number) => {
    // The story only moves forward: a block older than its parent would confuse every reader of the chain.
    if (unixSeconds < (await chainNow())) throw new Error("demo: the story ran past the present");
    await rpc("evm_setTime", [unixSeconds]);
  };
  const advance = async (seconds: number) => setChainTime((await chainNow()) + seconds);
  const wallNow = () => Math.floor(Date.now() / 1000);

  if ((await chainNow()) > wallNow() - (DEMO_HISTORY_DAYS - 1) * DAY)
    throw new Error(
      "demo: the demo needs a new local chain whose clock starts in the past (npm start -- --reset)",
    );

  // --- the API ----------------------------------------------------------------------------------

  async function api<T>(
    method: string,
    path: string,
    request: { session?: Session; body?: unknown; form?: FormData } = {},
  ): Promise<T> {
    const headers: Record<string, string> = {};
    if (request.session) headers.cookie = request.session.cookie;
    let body: string | FormData | undefined;
    if (request.form) body = request.form;
    else if (request.body !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(request.body);
    }
    const response = await fetch(new URL(path, options.apiUrl), { method, headers, body, signal });
    const text = await response.text();
    if (!response.ok) throw new Error(`demo: ${method} ${path} answered ${response.status}: ${text}`);
    return (text ? JSON.parse(text) : null) as T;
  }

  async function signIn(person: DemoPerson): Promise<Session> {
    const who = account(person.index);
    const { nonce } = await api<{ nonce: string }>("GET", "/api/auth/nonce");
    const url = new URL(options.apiUrl);
    const message = createSiweMessage({
      domain: url.host,
      uri: url.origin,
      address: who.address,
      chainId: chain.id,
      version: "1",
      statement: SIWE_STATEMENT,
      issuedAt: new Date(),
      nonce,
    });
    const signature = await who.signMessage({ message });
    const response = await fetch(new URL("/api/auth/verify", options.apiUrl), {
      signal,
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ message, signature }),
    });
    const token = response.headers.get("set-cookie")?.match(new RegExp(`${SESSION_COOKIE}=([^;]+)`))?.[1];
    if (!response.ok || !token) throw new Error(`demo: sign-in of ${person.name} failed: ${response.status}`);
    return { cookie: `${SESSION_COOKIE}=${token}`, person, account: who };
  }

  async function uploadImage(session: Session, bytes: Buffer, name: string): Promise<string> {
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(bytes)], { type: "image/jpeg" }), name);
    const { data } = await api<{ data: { path: string } }>("POST", "/api/profile/media_uploader", {
      session,
      form,
    });
    return data.path;
  }

  /** Waits until the indexer has every block up to the chain's head (what the API answers from). */
  async function indexed(): Promise<void> {
    const head = await client.getBlockNumber({ cacheTime: 0 });
    for (const deadline = Date.now() + 60_000; Date.now() < deadline; ) {
      const health = await api<{ indexer: { indexedBlock: string } | null }>("GET", "/api/health").catch(
        () => null,
      );
      signal?.throwIfAborted();
      if (health?.indexer && BigInt(health.indexer.indexedBlock) >= head) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`demo: the indexer did not reach block ${head} within a minute`);
  }

  const paragraphs = (text: string) => ({ type: "doc", paragraphs: [{ runs: [{ text }] }] });
  let sales = 0;

  // --- people -----------------------------------------------------------------------------------

  log("demo: people (profiles, avatars, banners)…");
  const people = [MODERATOR, ...ARTISTS, ...COLLECTORS];
  const verifying = (async () => {
    for (const artist of ARTISTS)
      await onMarket(0, "setArtistVerified", [account(artist.index).address, true]);
  })();
  const sessions = new Map<number, Session>();
  await Promise.all(
    people.map(async (person) => {
      const session = await signIn(person);
      sessions.set(person.index, session);
      const [avatar, banner] = await Promise.all([
        drawAvatar(person.index + 100).then((bytes) => uploadImage(session, bytes, "avatar.jpg")),
        drawBanner(person.banner, person.index + 200).then((bytes) =>
          uploadImage(session, bytes, "banner.jpg"),
        ),
      ]);
      await api("PUT", "/api/profile", {
        session,
        body: { name: person.name, username: person.username, bio: person.bio, avatar, banner },
      });
    }),
  );
  const as = (index: number) => sessions.get(index) as Session;
  await verifying;

  // --- collections ------------------------------------------------------------------------------

  log("demo: collections…");
  const { data: categoryList } = await api<{ data: { category_web2: { _id: number; title: string }[] } }>(
    "GET",
    "/api/category-web2",
  );
  const categoryId = (title: string) => {
    const found = categoryList.category_web2.find((c) => c.title === title);
    if (!found) throw new Error(`demo: no category ${title}`);
    return found._id;
  };
  const collections: Address[] = new Array(COLLECTIONS.length);
  await Promise.all(
    ARTISTS.map(async (artist) => {
      for (const [i, c] of COLLECTIONS.entries()) {
        if (c.artist !== artist.index) continue;
        const receipt = await send(artist.index, factory, easelFactoryAbi, "createCollection", [
          c.name,
          c.symbol,
          c.category,
        ]);
        const [created] = parseEventLogs({
          abi: easelFactoryAbi,
          logs: receipt.logs,
          eventName: "CollectionCreated",
        });
        const address = (created as { args: { collection: Address } }).args.collection;
        collections[i] = address;
        await send(artist.index, address, easelCollectionAbi, "setApprovalForAll", [market, true]);
      }
    }),
  );
  await indexed();

  /** Registers a collection created on chain, with its description, logo and banner. */
  async function register(
    c: (typeof COLLECTIONS)[number],
    address: Address,
    kind: "standard" | "lazy",
    seed: number,
  ) {
    const session = as(c.artist);
    await api("POST", "/api/collection", {
      session,
      body: {
        contract_address: address.toLowerCase(),
        name: c.name,
        symbol: c.symbol,
        collectionType: kind,
        category_web2_id: categoryId(c.category),
      },
    });
    const [logo, banner] = await Promise.all([
      drawArtwork(c.style, seed + 500).then((bytes) => uploadImage(session, bytes, "logo.jpg")),
      drawBanner(c.style, seed + 600).then((bytes) => uploadImage(session, bytes, "banner.jpg")),
    ]);
    await api("PUT", "/api/collection/edit", {
      session,
      body: { id: address.toLowerCase(), description: paragraphs(c.description), logo, banner },
    });
  }

  /** The file of item `index`: a picture in the collection's style, or its video or PDF. */
  async function drawItem(c: (typeof COLLECTIONS)[number], index: number, seed: number) {
    const kind = c.media?.[index];
    // A video or PDF goes with its poster, as the mint page sends it (a frame, the first page).
    if (kind === "video")
      return {
        bytes: await drawLoop(seed),
        type: "video/webm",
        name: "artwork.webm",
        poster: await drawLoopPoster(seed),
      };
    if (kind === "pdf")
      return {
        bytes: drawSketchbook(seed, c.items[index] as string),
        type: "application/pdf",
        name: "artwork.pdf",
        poster: await drawSketchbookPoster(seed, c.items[index] as string),
      };
    return { bytes: await drawArtwork(c.style, seed), type: "image/jpeg", name: "artwork.jpg", poster: null };
  }

  /** Uploads an artwork through the mint endpoint, as the mint page does, and answers the form's result. */
  async function uploadArtwork(
    c: (typeof COLLECTIONS)[number],
    address: Address,
    index: number,
    seed: number,
    price?: bigint,
  ) {
    const form = new FormData();
    form.append("category_web2_id", String(categoryId(c.category)));
    form.append("collection", address.toLowerCase());
    form.append("name", c.items[index] as string);
    form.append("royalty", String([5, 7, 10][index % 3]));
    form.append("description", `${c.items[index]}, from ${c.name}. ${c.description}`);
    form.append("tags", JSON.stringify([c.category.toLowerCase(), c.style]));
    form.append("_collaborators", "[]");
    if (price !== undefined) form.append("price", price.toString());
    const { bytes, type, name, poster } = await drawItem(c, index, seed);
    form.append("file", new Blob([new Uint8Array(bytes)], { type }), name);
    if (poster)
      form.append("poster", new Blob([new Uint8Array(poster)], { type: "image/png" }), "poster.png");
    const { data } = await api<{ data: { newNft: { uri_cid: string; royalty: number; _id: string } } }>(
      "POST",
      price === undefined ? "/api/mint" : "/api/mint/lazymint",
      { session: as(c.artist), form },
    );
    return data.newNft;
  }

  log("demo: artworks (drawn, uploaded and minted)…");
  const tokens: Token[][] = COLLECTIONS.map(() => []);
  await Promise.all(
    ARTISTS.map(async (artist) => {
      for (const [i, c] of COLLECTIONS.entries()) {
        if (c.artist !== artist.index) continue;
        const address = collections[i] as Address;
        await register(c, address, "standard", i * 100);
        for (let item = 0; item < c.items.length; item++) {
          const nft = await uploadArtwork(c, address, item, i * 100 + item);
          const receipt = await send(artist.index, address, easelCollectionAbi, "mintNFT", [
            nft.royalty * 100,
            cidToHex(nft.uri_cid),
            [],
          ]);
          const [minted] = parseEventLogs({
            abi: easelCollectionAbi,
            logs: receipt.logs,
            eventName: "Minted",
          });
          const tokenId = (minted as { args: { tokenId: bigint } }).args.tokenId;
          (tokens[i] as Token[]).push({ collection: address, tokenId, artist: artist.index });
        }
      }
    }),
  );
  const token = (collection: number, item: number) => (tokens[collection] as Token[])[item] as Token;

  log("demo: a lazy collection…");
  const moderator = as(MODERATOR.index);
  const lazyArtist = as(LAZY_COLLECTION.artist);
  await api("PUT", `/api/admin/users/${lazyArtist.account.address.toLowerCase()}/permission`, {
    session: moderator,
    body: { lazyCollections: 1 },
  });
  const query = new URLSearchParams({
    name: LAZY_COLLECTION.name,
    symbol: LAZY_COLLECTION.symbol,
    catWeb2_id: String(categoryId(LAZY_COLLECTION.category)),
    maximumSupply: "25",
  });
  const { data: lazyVoucher } = await api<{ data: { voucher: Record<string, string | number> } }>(
    "GET",
    `/api/collection/lazy-voucher?${query}`,
    { session: lazyArtist },
  );
  const v = lazyVoucher.voucher;
  const lazyReceipt = await send(LAZY_COLLECTION.artist, factory, easelFactoryAbi, "createLazyCollection", [
    {
      owner: v.owner,
      maxSupply: BigInt(v.maxSupply as number),
      name: v.name,
      symbol: v.symbol,
      category: v.category,
      deadline: BigInt(v.deadline as string),
      signature: v.signature,
    },
  ]);
  const [lazyCreated] = parseEventLogs({
    abi: easelFactoryAbi,
    logs: lazyReceipt.logs,
    eventName: "CollectionCreated",
  });
  const lazyAddress = (lazyCreated as { args: { collection: Address } }).args.collection;
  await indexed();
  await register(LAZY_COLLECTION, lazyAddress, "lazy", 900);
  const lazyPrices = ["0.05", "0.06", "0.08", "0.12", "0.2"];
  const lazyIds: string[] = [];
  for (const [item, price] of lazyPrices.entries()) {
    const nft = await uploadArtwork(LAZY_COLLECTION, lazyAddress, item, 900 + item, eth(price));
    lazyIds.push(nft._id);
  }

  log("demo: featured collections…");
  for (const i of [0, 2, 4]) {
    await api("PUT", `/api/admin/collections/${(collections[i] as Address).toLowerCase()}/featured`, {
      session: moderator,
      body: { featured: true },
    });
  }

  // --- five weeks of trading ----------------------------------------------------------------------

  const [jonah, priya, lena, omar, sam] = COLLECTORS.map((c) => c.index) as [
    number,
    number,
    number,
    number,
    number,
  ];
  const collectors = [jonah, priya, lena, omar, sam];
  const list = (t: Token, seller: number, price: string) =>
    onMarket(seller, "setSellOrder", [t.collection, t.tokenId, eth(price)]);
  const buy = async (t: Token, buyer: number, price: string) => {
    await onMarket(buyer, "buyNow", [t.collection, t.tokenId], eth(price));
    sales++;
  };
  const bid = (t: Token, bidder: number, amount: string) =>
    onMarket(bidder, "placeBid", [t.collection, t.tokenId, eth(amount)], eth(amount));
  /** An offer good for 30 days of the story's clock (the last ones stay live weeks after the demo ran). */
  const offer = async (t: Token, buyer: number, amount: string) =>
    onMarket(
      buyer,
      "makeOffer",
      [t.collection, t.tokenId, eth(amount), BigInt((await chainNow()) + 30 * DAY)],
      eth(amount),
    );
  /** A standard auction by the token's artist, starting now for `seconds`. */
  const standardAuction = (t: Token, price: string, seconds: number) =>
    onMarket(t.artist, "setStandardAuction", [t.collection, t.tokenId, eth(price), 0n, seconds]);
  /** A reserve auction by the token's artist: the first bid at the reserve starts its 72 hours. */
  const reserveAuction = (t: Token, reserve: string) =>
    onMarket(t.artist, "setReserveAuction", [t.collection, t.tokenId, eth(reserve)]);
  const approved = new Set<string>();
  const approve = async (who: number, collection: Address) => {
    const key = `${who}:${collection}`;
    if (approved.has(key)) return;
    approved.add(key);
    await send(who, collection, easelCollectionAbi, "setApprovalForAll", [market, true]);
  };
  const accept = async (t: Token, owner: number, amount: string) => {
    await approve(owner, t.collection);
    await onMarket(owner, "acceptOffer", [t.collection, t.tokenId, eth(amount)]);
    sales++;
  };

  log("demo: five weeks of sales (the chain's clock moves forward)…");
  // Week 1: the first piece of every collection sells at its fixed price.
  const firstSales = ["0.25", "0.4", "0.15", "0.3", "0.5", "0.35"];
  for (const [i, price] of firstSales.entries()) {
    await advance(DAY);
    await list(token(i, 0), token(i, 0).artist, price);
    await advance(8 * HOUR);
    await buy(token(i, 0), collectors[i % collectors.length] as number, price);
  }
  // Week 2: auctions, bid on by several collectors and settled.
  let settledAuction: DemoSummary["settledAuction"] | null = null;
  for (const [n, i] of [0, 2, 4].entries()) {
    await advance(DAY);
    const t = token(i, 1);
    await standardAuction(t, "1", DAY);
    await advance(3 * HOUR);
    await bid(t, collectors[n] as number, "1");
    await advance(9 * HOUR);
    await bid(t, collectors[n + 1] as number, "1.2");
    await advance(6 * HOUR);
    await bid(t, collectors[n] as number, "1.5");
    await advance(DAY);
    const settled = await onMarket(collectors[n] as number, "completeAuction", [t.collection, t.tokenId]);
    sales++;
    settledAuction ??= {
      collection: t.collection,
      tokenId: t.tokenId.toString(),
      txHash: settled.transactionHash,
      seller: account(t.artist).address,
      price: eth("1.5").toString(),
    };
  }
  // Week 3: offers accepted by the artists, and the first resale.
  for (const [n, i] of [1, 3, 5].entries()) {
    await advance(2 * DAY);
    const t = token(i, 2);
    await offer(t, collectors[n + 2] as number, "0.18");
    await advance(10 * HOUR);
    await accept(t, t.artist, "0.18");
  }
  await advance(DAY);
  await approve(jonah, token(0, 0).collection);
  await list(token(0, 0), jonah, "0.6");
  await advance(14 * HOUR);
  await buy(token(0, 0), lena, "0.6");
  // Week 4: lazy items find buyers, and a collector takes an offer on a resale.
  for (const [n, tokenId] of lazyIds.slice(0, 2).entries()) {
    await advance(2 * DAY);
    const buyer = as(collectors[n + 3] as number);
    const { data } = await api<{ data: { voucher: Record<string, unknown> } }>(
      "POST",
      "/api/nft/buy-lazy-mint",
      {
        session: buyer,
        body: { collection: lazyAddress.toLowerCase(), nft_id: tokenId },
      },
    );
    const voucher = data.voucher as {
      tokenId: string;
      price: string;
      royaltyBps: number;
      cid: `0x${string}`;
      collaborators: { account: Address; share: number }[];
      nonce: number;
      deadline: string;
      signature: `0x${string}`;
    };
    await send(
      buyer.person.index,
      lazyAddress,
      easelCollectionAbi,
      "lazyMint",
      [
        {
          ...voucher,
          tokenId: BigInt(voucher.tokenId),
          price: BigInt(voucher.price),
          deadline: BigInt(voucher.deadline),
        },
      ],
      BigInt(voucher.price),
    );
    sales++;
  }
  await advance(DAY);
  await offer(token(4, 0), jonah, "0.7");
  await advance(8 * HOUR);
  await accept(token(4, 0), collectors[4] as number, "0.7");

  // Four days ago: auctions that have ended since and wait for someone to settle them.
  log("demo: auctions running, ending soon and waiting for settlement…");
  await setChainTime(wallNow() - 4 * DAY);
  const reserveEnded = token(1, 1);
  await reserveAuction(reserveEnded, "0.3");
  await bid(reserveEnded, omar, "0.3");
  const standardEnded = token(3, 1);
  await standardAuction(standardEnded, "1", DAY / 2);
  await bid(standardEnded, priya, "1");
  await advance(2 * HOUR);
  await bid(standardEnded, sam, "1.2");

  // Ten hours ago: a reserve auction met its reserve (72 hours from then) and a five-day auction began.
  await setChainTime(wallNow() - 10 * HOUR);
  const reserveRunning = token(5, 1);
  await reserveAuction(reserveRunning, "0.25");
  await bid(reserveRunning, lena, "0.25");
  const standardRunning = token(0, 3);
  await standardAuction(standardRunning, "1", 5 * DAY);
  await bid(standardRunning, jonah, "1");
  await advance(3 * HOUR);
  await bid(standardRunning, priya, "1.25");

  // Now: an auction ending within the hour, one waiting for its first bid, listings and open offers.
  await setChainTime(wallNow());
  const endingSoon = token(2, 3);
  await standardAuction(endingSoon, "1", 50 * 60);
  await bid(endingSoon, omar, "1");
  await bid(endingSoon, sam, "1.2");
  const reserveWaiting = token(4, 3);
  await reserveAuction(reserveWaiting, "0.5");
  const listings = ["0.2", "0.35", "0.12", "0.28", "0.45", "0.3"];
  for (const [i, price] of listings.entries()) await list(token(i, 4), token(i, 4).artist, price);
  await list(token(6, 0), token(6, 0).artist, "0.4");
  await approve(lena, token(2, 0).collection);
  await list(token(2, 0), lena, "0.3");
  await offer(token(0, 5), sam, "0.1");
  await offer(token(2, 5), jonah, "0.08");
  await offer(token(3, 5), lena, "0.15");
  await offer(token(1, 0), omar, "0.5");
  // The local price feed is as old as the chain's start: it is read again now.
  if (options.contracts.ethUsdFeed) {
    await send(
      0,
      options.contracts.ethUsdFeed,
      parseAbi(["function updateAnswer(int256 answer)"]),
      "updateAnswer",
      [3_000n * 10n ** 8n],
    );
  }

  log("demo: follows, favourites and views…");
  await indexed();
  await Promise.all(
    collectors.map(async (collector, n) => {
      const session = as(collector);
      for (const artist of ARTISTS.slice(0, 1 + (n % 3)))
        await api("POST", "/api/profile/follow", {
          session,
          body: { userAddress: account(artist.index).address },
        });
      for (const i of [n % 6, (n + 2) % 6]) {
        const address = (collections[i] as Address).toLowerCase();
        await api("POST", "/api/collection/favorite", {
          session,
          body: { collectionId: address, favorite: true },
        });
        for (const item of [3, 4, 5]) {
          const t = token(i, item);
          const ref = { collection: address, tokenId: t.tokenId.toString() };
          await api("POST", "/api/nft/favorite", { session, body: { ...ref, favorite: true } });
          await api("POST", "/api/nft/view", { session, body: ref });
        }
      }
    }),
  );
  await api("POST", "/api/profile/follow", {
    session: as(ARTISTS[0]?.index as number),
    body: { userAddress: account(ARTISTS[1]?.index as number).address },
  });
  await indexed();

  if (!settledAuction) throw new Error("demo: no auction was settled");
  return {
    people: people.length,
    collections: [
      ...COLLECTIONS.map((c, i) => ({ name: c.name, address: collections[i] as Address })),
      { name: LAZY_COLLECTION.name, address: lazyAddress },
    ],
    mints: tokens.flat().length,
    lazyItems: lazyIds.length,
    sales,
    settledAuction,
    seconds: Math.round((Date.now() - started) / 100) / 10,
  };
}

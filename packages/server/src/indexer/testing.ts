/**
 * Helpers for the indexer's tests and benchmark: a private anvil with Easel deployed, a private
 * database, a driver for the contracts, running the indexer to the head, and full table dumps.
 */
import {
  easelCollectionAbi,
  easelFactoryAbi,
  easelMarketAbi,
  LAZY_COLLECTION_DOMAIN,
  LAZY_MINT_DOMAIN,
  lazyCollectionVoucherTypes,
  lazyMintVoucherTypes,
} from "@easel/contracts";
import { deployEasel } from "@easel/contracts/deploy";
import pg from "pg";
import {
  type Address,
  createPublicClient,
  createTestClient,
  createWalletClient,
  type Hash,
  http,
  type PublicClient,
  parseEther,
  parseEventLogs,
  type Transport,
} from "viem";
import { mnemonicToAccount } from "viem/accounts";
import { createChainClient, localChain } from "../chain/client.ts";
import { type Config, loadConfig } from "../config.ts";
import { createDatabase, type Database, migrateDatabase } from "../db/client.ts";
import { ANVIL_MNEMONIC, type Anvil, startAnvil } from "../embedded/anvil.ts";
import { freePort } from "../embedded/process.ts";
import { PROJECTION_TABLES } from "./batch.ts";
import { step } from "./follower.ts";
import type { IndexerOptions } from "./options.ts";

export const accounts = Array.from({ length: 10 }, (_, i) =>
  mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: i }),
);
export const [admin, artist, alice, bob, carol] = accounts as [
  (typeof accounts)[0],
  (typeof accounts)[0],
  (typeof accounts)[0],
  (typeof accounts)[0],
  (typeof accounts)[0],
];
export const signer = accounts[9] as (typeof accounts)[0];

/** A fresh database (created on the test server and migrated); `drop` removes it. */
export async function createScratchDatabase(baseUrl: string, prefix = "idx") {
  const name = `${prefix}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  const db = createDatabase(url.toString());
  await migrateDatabase(db);
  return {
    url: url.toString(),
    db,
    async drop() {
      await db.$client.end();
      const c = new pg.Client({ connectionString: baseUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

export type TestChain = Awaited<ReturnType<typeof startTestChain>>;

/** A private anvil with Easel deployed (admin = account 0, voucher signer = account 9). */
export async function startTestChain(options: { blockTimeS?: number } = {}) {
  const anvil: Anvil = await startAnvil({ port: await freePort(), ...options });
  const chain = { ...localChain, rpcUrls: { default: { http: [anvil.url] } } };
  // Large backfill batches return big getLogs responses on this local chain.
  const transport = http(anvil.url, { timeout: 60_000, maxResponseBodySize: 200_000_000 });
  const publicClient = createPublicClient({ chain, transport, pollingInterval: 50 }) as PublicClient;
  const test = createTestClient({ chain, mode: "anvil", transport });
  const deployment = await deployEasel({
    walletClient: createWalletClient({ account: admin, chain, transport }),
    publicClient,
    admin: admin.address,
    signer: signer.address,
    local: true,
  });
  const c = deployment.contracts as Record<string, Address>;
  const wallets = new Map(
    accounts.map((a) => [a.address, createWalletClient({ account: a, chain, transport })]),
  );
  const wallet = (who: (typeof accounts)[0]) =>
    wallets.get(who.address) as ReturnType<typeof createWalletClient>;
  return {
    anvil,
    url: anvil.url,
    publicClient,
    test,
    deployment,
    market: c.market as Address,
    factory: c.factory as Address,
    defaultCollection: c.defaultCollection as Address,
    wallet,
    chain,
    /** Environment for loadConfig (DATABASE_URL added by the caller). */
    env: (databaseUrl: string): Record<string, string> => ({
      DATABASE_URL: databaseUrl,
      RPC_URL: anvil.url,
      CHAIN_ID: "31337",
      FACTORY_ADDRESS: c.factory as string,
      MARKET_ADDRESS: c.market as string,
      DEFAULT_COLLECTION_ADDRESS: c.defaultCollection as string,
      ETH_USD_FEED_ADDRESS: c.ethUsdFeed as string,
      DEPLOY_BLOCK: deployment.deployBlock,
      SIGNER_PRIVATE_KEY: "0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6",
      PUBLIC_URL: "http://127.0.0.1:3000",
      LOG_LEVEL: "silent",
    }),
    stop: () => anvil.stop(),
  };
}

/** A CIDv1 (raw, sha2-256) in the binary form the contracts take, different for every `n`. */
export function cidBytes(n: number): `0x${string}` {
  return `0x01551220${n.toString(16).padStart(64, "0")}`;
}

/** Sends contract calls as the given accounts and waits for them. */
export function driver(t: TestChain) {
  const send = async (
    who: (typeof accounts)[0],
    address: Address,
    abi: readonly unknown[],
    functionName: string,
    args: readonly unknown[] = [],
    value?: bigint,
  ) => {
    const hash: Hash = await t.wallet(who).writeContract({
      address,
      abi: abi as never,
      functionName: functionName as never,
      args: args as never,
      value: value as never,
      chain: t.chain,
      account: who,
    } as never);
    const receipt = await t.publicClient.waitForTransactionReceipt({ hash });
    if (receipt.status !== "success") throw new Error(`${functionName} reverted`);
    return receipt;
  };
  const market = (who: (typeof accounts)[0], fn: string, args: readonly unknown[], value?: bigint) =>
    send(who, t.market, easelMarketAbi, fn, args, value);
  const collection = (who: (typeof accounts)[0], address: Address, fn: string, args: readonly unknown[]) =>
    send(who, address, easelCollectionAbi, fn, args);
  return {
    send,
    market,
    collection,
    async createCollection(
      who: (typeof accounts)[0],
      name: string,
      symbol: string,
      category = "painting",
    ): Promise<Address> {
      const receipt = await send(who, t.factory, easelFactoryAbi, "createCollection", [
        name,
        symbol,
        category,
      ]);
      const [created] = parseEventLogs({
        abi: easelFactoryAbi,
        logs: receipt.logs,
        eventName: "CollectionCreated",
      });
      return (created as { args: { collection: Address } }).args.collection;
    },
    async createLazyCollection(
      who: (typeof accounts)[0],
      name: string,
      symbol: string,
      maxSupply: number,
      category = "photo",
    ) {
      const voucher = {
        owner: who.address,
        maxSupply,
        name,
        symbol,
        category,
        deadline: 2n ** 40n,
      };
      const signature = await signer.signTypedData({
        domain: { ...LAZY_COLLECTION_DOMAIN, chainId: 31337, verifyingContract: t.factory },
        types: lazyCollectionVoucherTypes,
        primaryType: "LazyCollectionVoucher",
        message: voucher,
      });
      const receipt = await send(who, t.factory, easelFactoryAbi, "createLazyCollection", [
        { ...voucher, signature },
      ]);
      const [created] = parseEventLogs({
        abi: easelFactoryAbi,
        logs: receipt.logs,
        eventName: "CollectionCreated",
      });
      return (created as { args: { collection: Address } }).args.collection;
    },
    async lazyMint(
      buyer: (typeof accounts)[0],
      collectionAddress: Address,
      tokenId: bigint,
      price: bigint,
      creator: Address,
    ) {
      const voucher = {
        tokenId,
        price,
        royaltyBps: 500,
        cid: cidBytes(Number(tokenId) + 10_000),
        collaborators: [{ account: creator, share: 100 }],
        nonce: 0,
        deadline: 2n ** 40n,
      };
      // The buyer and the collection are signed, not sent: only that buyer can use it, only there.
      const signature = await signer.signTypedData({
        domain: { ...LAZY_MINT_DOMAIN, chainId: 31337, verifyingContract: collectionAddress },
        types: lazyMintVoucherTypes,
        primaryType: "LazyMintVoucher",
        message: { ...voucher, buyer: buyer.address, collection: collectionAddress },
      });
      return send(
        buyer,
        collectionAddress,
        easelCollectionAbi,
        "lazyMint",
        [{ ...voucher, signature }],
        price,
      );
    },
    /** Mints the collection's next token, which must be `tokenId` (ids are assigned in order from 1). */
    async mint(who: (typeof accounts)[0], address: Address, tokenId: bigint, royaltyBps = 1000) {
      const receipt = await send(who, address, easelCollectionAbi, "mintNFT", [
        royaltyBps,
        cidBytes(Number(tokenId)),
        [],
      ]);
      const [minted] = parseEventLogs({ abi: easelCollectionAbi, logs: receipt.logs, eventName: "Minted" });
      const id = (minted as { args: { tokenId: bigint } } | undefined)?.args.tokenId;
      if (id !== tokenId) throw new Error(`minted token ${id}, expected ${tokenId}`);
      return receipt;
    },
    approve: (who: (typeof accounts)[0], address: Address) =>
      send(who, address, easelCollectionAbi, "setApprovalForAll", [t.market, true]),
    /** An offer's `expiresAt` (item or collection offer): `days` after the latest block's time. */
    async offerExpiry(days = 7): Promise<bigint> {
      const latest = await t.publicClient.getBlock();
      return latest.timestamp + BigInt(days * 86_400);
    },
    async increaseTime(seconds: number) {
      await t.test.increaseTime({ seconds });
      await t.test.mine({ blocks: 1 });
    },
  };
}

/**
 * Drives every event kind through full flows: verification, collection creation, mints, listing and
 * buy, standard auction with outbid and extension, reserve auction, offers (outbid, cancel, accept), lazy
 * collection and lazy mint with signed vouchers, listing voided by a transfer, unlisting, burn, bans and
 * blocks. Returns the addresses involved.
 */
export async function runFullFlow(t: TestChain) {
  const d = driver(t);
  await d.market(admin, "setArtistVerified", [artist.address, true]);
  const art = await d.createCollection(artist, "Sunsets", "SUN");
  for (const id of [1n, 2n, 3n, 4n]) await d.mint(artist, art, id);
  await d.mint(admin, t.defaultCollection, 1n, 0);
  await d.approve(artist, art);

  // Fixed price: list, buy (primary sale).
  await d.market(artist, "setSellOrder", [art, 1n, parseEther("1")]);
  await d.market(alice, "buyNow", [art, 1n], parseEther("1"));

  // Standard auction: bid, outbid in the last 15 minutes (extension), complete.
  await d.market(artist, "setStandardAuction", [art, 2n, parseEther("1"), 0n, 900n]);
  await d.market(alice, "placeBid", [art, 2n, parseEther("1")], parseEther("1"));
  await d.increaseTime(300);
  await d.market(bob, "placeBid", [art, 2n, parseEther("1.2")], parseEther("1.2"));
  await d.increaseTime(2_000);
  await d.market(carol, "completeAuction", [art, 2n]);

  // Reserve auction: the first bid at the reserve starts it for 72 hours.
  await d.market(artist, "setReserveAuction", [art, 3n, parseEther("0.5")]);
  await d.market(carol, "placeBid", [art, 3n, parseEther("0.5")], parseEther("0.5"));
  await d.increaseTime(72 * 3600 + 10);
  await d.market(artist, "completeAuction", [art, 3n]);

  // Offers on token 1 (owned by alice): bob offers, carol outbids, bob offers on 4 and cancels, alice accepts.
  await d.market(bob, "makeOffer", [art, 1n, parseEther("0.1"), await d.offerExpiry()], parseEther("0.1"));
  await d.market(carol, "makeOffer", [art, 1n, parseEther("0.2"), await d.offerExpiry()], parseEther("0.2"));
  await d.market(bob, "makeOffer", [art, 4n, parseEther("0.1"), await d.offerExpiry()], parseEther("0.1"));
  await d.market(bob, "cancelOffer", [art, 4n]);
  await d.approve(alice, art);
  await d.market(alice, "acceptOffer", [art, 1n, parseEther("0.2")]);

  // A listing voided by a transfer, and a listing cancelled.
  await d.approve(carol, art);
  await d.market(carol, "setSellOrder", [art, 1n, parseEther("2")]);
  await d.collection(carol, art, "transferFrom", [carol.address, bob.address, 1n]);
  await d.market(artist, "setSellOrder", [art, 4n, parseEther("3")]);
  await d.market(artist, "cancelSellOrder", [art, 4n]);
  await d.market(artist, "setSellOrder", [art, 4n, parseEther("2.5")]);

  // Lazy collection and a lazy mint bought with a voucher.
  const lazy = await d.createLazyCollection(artist, "Dawn", "DAWN", 10);
  await d.lazyMint(alice, lazy, 7n, parseEther("0.3"), artist.address);

  // Burn, ban, blocks.
  await d.collection(admin, t.defaultCollection, "burnNFT", [1n]);
  await d.market(admin, "setBanned", [bob.address, true]);
  await d.market(admin, "setTokenBlocked", [art, 3n, true]);
  await d.market(admin, "setCollectionBlocked", [lazy, true]);
  return { art, lazy };
}

/** Runs batches on one connection until the indexer reaches the final head (as the leader would). */
export async function indexToHead(options: IndexerOptions, maxSteps = 10_000): Promise<void> {
  const client = await options.db.$client.connect();
  try {
    for (let i = 0; i < maxSteps; i++) {
      if (await step(options, client)) return;
    }
    throw new Error("indexer did not reach the head");
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

/** Runs the indexer to the head on `db` for `config`'s chain, as the server would (the tests' `index()`). */
export function indexerFor(db: Database, config: Config): () => Promise<void> {
  return () => indexToHead(indexerOptions(db, config, createChainClient(config.chainId, config.rpcUrls)));
}

export function indexerOptions(db: Database, config: Config, chain: PublicClient): IndexerOptions {
  return { db, config, chain, log: () => {} };
}

export function configFor(t: TestChain, databaseUrl: string): Config {
  return loadConfig(t.env(databaseUrl));
}

export function publicClientFor(t: TestChain, transport?: Transport): PublicClient {
  return createPublicClient({ chain: t.chain, transport: transport ?? http(t.url) }) as PublicClient;
}

/**
 * Every chain table (ordered by primary key), the indexer-written notifications and the cursor: what
 * must be identical between two indexes of the same chain. (chain_blocks is bookkeeping: which block
 * hashes are kept depends on where batches ended.)
 */
export async function dumpTables(db: Database): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const table of ["chain_events", ...PROJECTION_TABLES]) {
    const { rows } = await db.$client.query(`SELECT * FROM ${table} t ORDER BY t::text`);
    out[table] = rows;
  }
  const { rows: notes } = await db.$client.query(
    `SELECT address, kind, message, data, source_key, created_at FROM notifications
     WHERE source_key IS NOT NULL ORDER BY source_key`,
  );
  out.notifications = notes;
  const { rows: state } = await db.$client.query("SELECT chain_id, indexed_block FROM indexer_state");
  out.indexer_state = state;
  return out;
}

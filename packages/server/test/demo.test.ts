/**
 * The demo marketplace of a first `npm start`, run by the real launcher on its own ports, and checked the
 * way a visitor meets it: through the API (and the chain for the money). The first start is stopped while it
 * fills the demo, as a newcomer pressing Ctrl-C would; the demo checked is the one the next start makes.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { ActivityRow } from "@easel/common";
import { createPublicClient, http, parseEther } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DemoSummary } from "../src/demo/seed.ts";
import { exited, stack, until } from "./launcher-helpers.ts";

let launcher: Awaited<ReturnType<typeof stack>>;
let interrupted: ReturnType<Awaited<ReturnType<typeof stack>>["start"]>;
let interruptedExit: number | null;
let portsFreeAfterStop: boolean;
let run: ReturnType<Awaited<ReturnType<typeof stack>>["start"]>;
let summary: DemoSummary;
let apiUrl: string;

beforeAll(async () => {
  launcher = await stack();
  interrupted = launcher.start([]);
  await until(() => interrupted.output().includes("demo: collections"), "the demo to be under way", 240_000);
  const stopping = performance.now();
  interrupted.child.kill("SIGINT");
  interruptedExit = await exited(interrupted.child);
  console.log(`stopped during the demo in ${Math.round(performance.now() - stopping)} ms`);
  portsFreeAfterStop = await launcher.portsFree();

  run = launcher.start([]);
  await until(
    () => /demo ready in|demo could not be filled/.test(run.output()),
    "the demo to be filled",
    240_000,
  );
  expect(run.output()).toMatch(/demo ready in [\d.]+ s/);
  summary = JSON.parse(readFileSync(join(launcher.dir, "data", "demo.json"), "utf8")) as DemoSummary;
  apiUrl = `http://127.0.0.1:${launcher.ports.api}`;
}, 480_000);

afterAll(async () => {
  if (!run) return;
  run.child.kill("SIGTERM");
  await exited(run.child);
});

async function get<T>(path: string): Promise<T> {
  const response = await fetch(`${apiUrl}${path}`);
  expect(response.status, path).toBe(200);
  return ((await response.json()) as { data: T }).data;
}

type Card = { tokenId: string; name: string; status: string };

describe("the demo marketplace", () => {
  it("prints its progress and how long it took", () => {
    for (const step of ["demo: people", "demo: collections", "demo: five weeks of sales", "demo ready in"])
      expect(run.output()).toContain(step);
    console.log(`demo seed: ${summary.seconds} s (${summary.mints} mints, ${summary.sales} sales)`);
  });

  it("is started over by the next start when the first start was stopped while filling it", () => {
    expect(interruptedExit).toBe(0);
    expect(interrupted.output()).toContain("[easel] stopped.");
    expect(interrupted.output()).not.toMatch(/demo ready|could not/);
    // Nothing of the stopped start keeps running.
    expect(portsFreeAfterStop).toBe(true);
    expect(run.output()).toContain(
      "the first start was stopped before its demo was complete: starting it over on a new chain and database",
    );
    expect(run.output()).toMatch(/\[easel\] demo ready in [\d.]+ s/);
    expect(run.output()).not.toContain("could not");
    expect(existsSync(join(launcher.dir, "data", "demo-pending"))).toBe(false);
  });

  it("has named artists and collectors with avatars and banners, and a moderator", async () => {
    for (const username of ["mira_okafor", "tomas_lindqvist", "ayaka_sato", "jonah_reyes", "sam_carter"]) {
      const { user } = await get<{
        user: { name: string; avatar: string | null; banner: string | null; bio: string };
      }>(`/api/profile?userkey=${username}`);
      expect(user.name).toMatch(/^[A-Z][a-z]+ [A-Z][a-z]+$/);
      expect(user.avatar).toMatch(/^\/ipfs\//);
      expect(user.banner).toMatch(/^\/ipfs\//);
      expect(user.bio.length).toBeGreaterThan(20);
    }
    const mira = await get<{ followersCount: number }>("/api/profile?userkey=mira_okafor");
    expect(mira.followersCount).toBeGreaterThanOrEqual(3);
  });

  it("tells the Dev wallet who each test account is", async () => {
    const { accounts } = await get<{ accounts: { name: string | null; role: string }[] }>(
      "/api/dev/accounts",
    );
    expect(accounts.map((a) => a.role)).toEqual([
      "Moderator, Artist — verified",
      "Artist — verified",
      "Artist — verified",
      "Artist — verified",
      "Collector",
      "Collector",
      "Collector",
      "Collector",
      "Collector",
      "Voucher signer",
    ]);
    expect(accounts[1]?.name).toBe("Mira Okafor");
    expect(accounts[9]?.name).toBeNull();
  });

  it("lists items in every status", async () => {
    const count = async (status: string) =>
      (await get<{ nfts: Card[] }>(`/api/explore?status=${status}&limit=50`)).nfts.length;
    // Buy now and Lazy minted hold the three lazy items still for sale (minted at purchase) beside the tokens.
    expect(await count("buyNow")).toBe(11);
    expect(await count("liveAuction")).toBe(3);
    expect(await count("reserveNotMet")).toBe(1);
    expect(await count("hasOffers")).toBe(4);
    expect(await count("lazy")).toBe(5);
    const explore = await fetch(`${apiUrl}/api/explore/collections?limit=50`);
    expect(((await explore.json()) as { collections: unknown[] }).collections).toHaveLength(8);
    const home = await get<{ collections: unknown[] }>("/api/home");
    expect(home.collections).toHaveLength(3);
  });

  it("has moving and printed pieces: two looping WebM videos and a PDF sketchbook, with posters", async () => {
    const address = summary.collections.find((c) => c.name === "Night Drift")?.address.toLowerCase();
    const { nfts } = await get<{ nfts: Card[] }>(`/api/explore?collection=${address}&limit=50`);
    const kinds: string[] = [];
    for (const card of nfts) {
      const query = new URLSearchParams({
        creator: "tomas_lindqvist",
        collection: "Night Drift",
        tokenId: card.tokenId,
      });
      const { nft } = await get<{ nft: { media: { mime: string; cid: string; preview: string | null } } }>(
        `/api/nft?${query}`,
      );
      kinds.push(nft.media.mime);
      // With their poster (a frame, the first page) as the page's preview and the card's picture.
      expect(nft.media.preview).toBeTruthy();
      // The file as stored plays and opens: WebM's EBML magic, PDF's header.
      const file = Buffer.from(await (await fetch(`${apiUrl}/ipfs/${nft.media.cid}`)).arrayBuffer());
      if (nft.media.mime === "video/webm") expect(file.subarray(0, 4).toString("hex")).toBe("1a45dfa3");
      else expect(file.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    }
    expect(kinds.sort()).toEqual(["application/pdf", "video/webm", "video/webm"]);
  });

  it("has auctions running, ending within the hour, waiting for a first bid and waiting for settlement", async () => {
    type Auction = { kind: string; endTime: string | null; topBidWei: string | null };
    const auctions: Auction[] = [];
    for (const artist of ["mira_okafor", "tomas_lindqvist", "ayaka_sato"]) {
      const { created } = await get<{ created: (Card & { collection: { name: string } })[] }>(
        `/api/profile?userkey=${artist}`,
      );
      for (const card of created.filter((c) => c.status === "auction")) {
        const query = new URLSearchParams({
          creator: artist,
          collection: card.collection.name,
          tokenId: card.tokenId,
        });
        auctions.push((await get<{ nft: { auction: Auction } }>(`/api/nft?${query}`)).nft.auction);
      }
    }
    const now = Date.now();
    const ends = (auction: Auction) => (auction.endTime ? Date.parse(auction.endTime) : Number.NaN);
    const running = auctions.filter((a) => ends(a) > now);
    expect(auctions).toHaveLength(6);
    expect(running.filter((a) => a.kind === "standard")).toHaveLength(2);
    expect(running.filter((a) => a.kind === "reserve")).toHaveLength(1);
    expect(running.filter((a) => ends(a) < now + 3_600_000)).toHaveLength(1);
    // Ended with a winning bid, not settled yet: anyone may complete them.
    expect(auctions.filter((a) => ends(a) <= now && a.topBidWei)).toHaveLength(2);
    expect(auctions.filter((a) => a.kind === "reserve" && a.endTime === null && !a.topBidWei)).toHaveLength(
      1,
    );
  });

  it("has a settled auction whose seller was paid the price less the 10% primary commission", async () => {
    const sale = summary.settledAuction;
    const { activity } = await get<{ activity: ActivityRow[] }>(
      `/api/collection/activity?id=${sale.collection.toLowerCase()}&kind=sale&limit=50`,
    );
    const row = activity.find((a) => a.txHash === sale.txHash);
    expect(row).toMatchObject({ tokenId: sale.tokenId, priceWei: sale.price });
    const client = createPublicClient({ transport: http(`http://127.0.0.1:${launcher.ports.chain}`) });
    const receipt = await client.getTransactionReceipt({ hash: sale.txHash });
    const balanceChange = async (address: `0x${string}`) =>
      (await client.getBalance({ address, blockNumber: receipt.blockNumber })) -
      (await client.getBalance({ address, blockNumber: receipt.blockNumber - 1n }));
    // The creator sells first through the market: 90% to them, 10% kept by the market as its fee.
    expect(await balanceChange(sale.seller)).toBe((BigInt(sale.price) * 9n) / 10n);
    expect(BigInt(sale.price)).toBe(parseEther("1.5"));
  });

  it("has sales spread over several weeks", async () => {
    const times: number[] = [];
    for (const { address } of summary.collections) {
      const { activity } = await get<{ activity: ActivityRow[] }>(
        `/api/collection/activity?id=${address.toLowerCase()}&kind=sale&limit=50`,
      );
      times.push(...activity.map((a) => Date.parse(a.time)));
    }
    expect(times.length).toBe(summary.sales);
    const days = (Math.max(...times) - Math.min(...times)) / 86_400_000;
    expect(days).toBeGreaterThan(21);
  });
});

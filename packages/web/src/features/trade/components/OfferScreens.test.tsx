import type { ItemResponse } from "@easel/common";
import { easelMarketAbi } from "@easel/contracts/abis";
import { fireEvent, screen, within } from "@testing-library/react";
import { toast } from "sonner";
import { decodeFunctionData, encodeFunctionResult, type Hex, numberToHex, parseEther } from "viem";
import { beforeEach, describe, expect, it, vi } from "vitest";
import {
  getBlock,
  readContract,
  simulateContract,
  waitForTransactionReceipt,
  writeContract,
} from "wagmi/actions";
import { dateTimeText } from "../../../lib/dates.ts";
import { fakeApi, LOCAL_CONFIG, renderApp, sessionRoute, signedIn } from "../../../test/harness.tsx";
import { COLLECTION, CREATOR, itemFixture } from "../../../test/items.ts";
import { ITEM_ACTION_TEXT } from "../../items/components/ItemActions.tsx";
import { OFFER_TEXT } from "./OfferScreens.tsx";

// The flow's reads at submit (the latest block, the market's offer) and the wallet; the page's hooks read
// through the fake RPC endpoint below.
vi.mock("wagmi/actions", async (importOriginal) => ({
  ...(await importOriginal<typeof import("wagmi/actions")>()),
  getBlock: vi.fn(),
  readContract: vi.fn(),
  simulateContract: vi.fn(),
  writeContract: vi.fn(),
  waitForTransactionReceipt: vi.fn(),
}));

const MARKET = "0x5fbdb2315678afecb367f032d93f642f64180aa3";
const WITH_MARKET = { ...LOCAL_CONFIG, contracts: { market: MARKET } };
const BUYER = "0x90f79bf6eb2c4f870365e785982e1f101e93b906";
const OTHER = "0x15d34aaf54267db7d7c367839aaf71a00a2c6a65";
const ZERO = "0x0000000000000000000000000000000000000000";
const ITEM_PATH = `${CREATOR}/Studio%20Works/42`;
const HASH = `0x${"12".repeat(32)}` as Hex;
const DAY = 86_400n;

/** The chain: its latest block time (now, in seconds) and the market's offer on the token. */
const chain = {
  now: 0n,
  offer: { buyer: ZERO as string, amount: 0n, expiresAt: 0n },
};
const nowSeconds = () => BigInt(Math.floor(Date.now() / 1000));

/** JSON-RPC answers for the page's hooks: the offer minimum (0.1 ETH), the offer, the balance, the block. */
function rpc(init: RequestInit | undefined) {
  const answer = (request: { method: string; params: unknown[] }) => {
    switch (request.method) {
      case "eth_chainId":
        return "0x7a69";
      case "eth_blockNumber":
        return "0x64";
      case "eth_getBalance":
        return numberToHex(parseEther("10"));
      case "eth_getBlockByNumber":
        return {
          number: "0x64",
          hash: `0x${"ab".repeat(32)}`,
          parentHash: `0x${"cd".repeat(32)}`,
          timestamp: numberToHex(chain.now),
          baseFeePerGas: "0x3b9aca00",
          gasLimit: "0x1c9c380",
          gasUsed: "0x0",
          transactions: [],
        };
      case "eth_call": {
        const { data } = request.params[0] as { data: Hex };
        const call = decodeFunctionData({ abi: easelMarketAbi, data });
        if (call.functionName === "getOffer")
          return encodeFunctionResult({
            abi: easelMarketAbi,
            functionName: "getOffer",
            result: chain.offer as never,
          });
        if (call.functionName !== "minimums") throw new Error(`unexpected ${call.functionName}`);
        const tenth = parseEther("0.1");
        return encodeFunctionResult({
          abi: easelMarketAbi,
          functionName: "minimums",
          result: {
            listing: tenth,
            offer: tenth,
            lazyMint: tenth,
            standardAuction: tenth,
            reserveAuction: tenth,
          },
        });
      }
      default:
        return undefined;
    }
  };
  const body = JSON.parse(String(init?.body));
  const one = (request: { id: number; method: string; params: unknown[] }) => {
    const result = answer(request);
    return result === undefined
      ? { jsonrpc: "2.0", id: request.id, error: { code: -32601, message: `no ${request.method}` } }
      : { jsonrpc: "2.0", id: request.id, result };
  };
  return { body: Array.isArray(body) ? body.map(one) : one(body) };
}

type Offer = ItemResponse["data"]["nft"]["offers"][number];
const apiOffer = (address: string, priceWei: bigint, expiresAt: bigint): Offer => ({
  address,
  person: { address, name: null, username: null, ens: null },
  priceWei: priceWei.toString(),
  status: "active",
  time: "2026-11-20T00:00:00.000Z",
  expiresAt: new Date(Number(expiresAt) * 1000).toISOString(),
});

function api(viewer: string, offers: Offer[] = [], nft: Partial<ItemResponse["data"]["nft"]> = {}) {
  return fakeApi({
    ...sessionRoute({ current: signedIn(viewer) }),
    "POST /": rpc,
    "GET /api/nft": () => ({ body: { data: itemFixture({ offers, ...nft }) } }),
    "GET /api/health": () => ({
      body: { indexer: { indexedBlock: "100" }, chain: { ok: true, headBlock: "100" } },
    }),
  });
}

/** The market's offer on the token, on chain and as the API lists it. */
function offerOnChain(buyer: string, amount: bigint, expiresAt: bigint): Offer[] {
  chain.offer = { buyer, amount, expiresAt };
  return [apiOffer(buyer, amount, expiresAt)];
}

const writes = () => vi.mocked(writeContract).mock.calls.map(([, request]) => request);

beforeEach(() => {
  toast.dismiss();
  chain.now = nowSeconds();
  chain.offer = { buyer: ZERO, amount: 0n, expiresAt: 0n };
  vi.mocked(getBlock)
    .mockReset()
    .mockImplementation((async () => ({ timestamp: chain.now })) as never);
  vi.mocked(readContract)
    .mockReset()
    .mockImplementation((async (_config: unknown, call: { functionName: string }) => {
      if (call.functionName === "getOffer") return chain.offer;
      throw new Error(`unexpected read ${call.functionName}`);
    }) as never);
  vi.mocked(simulateContract)
    .mockReset()
    .mockImplementation((async (_config: unknown, call: unknown) => ({ request: call })) as never);
  vi.mocked(writeContract).mockReset().mockResolvedValue(HASH);
  vi.mocked(waitForTransactionReceipt)
    .mockReset()
    .mockResolvedValue({ status: "success", blockNumber: 7n, logs: [] } as never);
});

/** Opens the offer page once the market's minimum and offer are read. */
async function openOffer(viewer: string, offers: Offer[] = []) {
  api(viewer, offers);
  await renderApp({ path: `/offer/${ITEM_PATH}`, config: WITH_MARKET });
  await screen.findByText(/^At least 0\.1 ETH|^You send/);
}

const typeOffer = (label: string, amount: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value: amount } });

describe("Make an Offer", () => {
  it("offers plain expiry choices, 7 days by default, and sends the chosen one counted from the latest block", async () => {
    await openOffer(BUYER);
    const expiry = screen.getByRole("group", { name: OFFER_TEXT.expiresLegend });
    const choices = within(expiry).getAllByRole("radio");
    expect(choices.map((choice) => choice.closest("label")?.textContent)).toEqual([
      "1 day",
      "3 days",
      "7 days",
      "30 days",
    ]);
    expect(within(expiry).getByRole("radio", { name: "7 days" })).toHaveProperty("checked", true);

    fireEvent.click(within(expiry).getByRole("radio", { name: "1 day" }));
    expect(within(expiry).getByRole("radio", { name: "1 day" })).toHaveProperty("checked", true);
    // The block the offer is sent after: its time, not this computer's, starts the expiry.
    chain.now = nowSeconds() + 3600n;
    typeOffer("Your offer", "0.2");
    fireEvent.click(screen.getByRole("button", { name: "Make Offer" }));
    expect(await screen.findByText(OFFER_TEXT.made, { selector: "p" })).toBeTruthy();
    expect(writes()).toEqual([
      expect.objectContaining({
        address: MARKET,
        functionName: "makeOffer",
        args: [COLLECTION, 42n, parseEther("0.2"), chain.now + DAY],
        value: parseEther("0.2"),
      }),
    ]);
  });

  it("sends 7 days when nothing else is chosen", async () => {
    await openOffer(BUYER);
    typeOffer("Your offer", "0.25");
    fireEvent.click(screen.getByRole("button", { name: "Make Offer" }));
    expect(await screen.findByText(OFFER_TEXT.made, { selector: "p" })).toBeTruthy();
    expect(writes()[0]?.args).toEqual([COLLECTION, 42n, parseEther("0.25"), chain.now + 7n * DAY]);
  });

  it("refuses more than 9 decimal places in words, next to the field, before the wallet opens", async () => {
    await openOffer(BUYER);
    typeOffer("Your offer", "0.1234567891");
    fireEvent.click(screen.getByRole("button", { name: "Make Offer" }));
    const error = await screen.findByText(OFFER_TEXT.decimals);
    expect(error.id).toMatch(/-error$/);
    expect(screen.getByLabelText("Your offer").getAttribute("aria-invalid")).toBe("true");
    expect(writeContract).not.toHaveBeenCalled();
    // Nine places are a whole number of gwei: accepted.
    typeOffer("Your offer", "0.123456789");
    fireEvent.click(screen.getByRole("button", { name: "Make Offer" }));
    expect(await screen.findByText(OFFER_TEXT.made, { selector: "p" })).toBeTruthy();
    expect(writes()[0]?.value).toBe(parseEther("0.123456789"));
  });

  it("takes no offer on an item in an auction, even before the auction's details are indexed", async () => {
    api(BUYER, [], { status: "auction", auction: null });
    await renderApp({ path: `/offer/${ITEM_PATH}`, config: WITH_MARKET });
    expect(await screen.findByText(OFFER_TEXT.inAuction)).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Make Offer" })).toBeNull();
  });

  it("asks a newcomer to beat a live offer", async () => {
    await openOffer(BUYER, offerOnChain(OTHER, parseEther("0.5"), nowSeconds() + DAY));
    expect(screen.getByText("Current offer")).toBeTruthy();
    typeOffer("Your offer", "0.4");
    fireEvent.click(screen.getByRole("button", { name: "Make Offer" }));
    expect(await screen.findByText(OFFER_TEXT.beat(parseEther("0.5")))).toBeTruthy();
    expect(writeContract).not.toHaveBeenCalled();
  });

  it("needs only the minimum to replace an expired offer, which it names as expired", async () => {
    const expiresAt = nowSeconds() - 60n;
    await openOffer(BUYER, offerOnChain(OTHER, parseEther("0.5"), expiresAt));
    expect(screen.getByText("Expired offer")).toBeTruthy();
    expect(screen.getByText(OFFER_TEXT.expiredOther(dateTimeText(Number(expiresAt) * 1000)))).toBeTruthy();
    typeOffer("Your offer", "0.2");
    fireEvent.click(screen.getByRole("button", { name: "Make Offer" }));
    expect(await screen.findByText(OFFER_TEXT.made, { selector: "p" })).toBeTruthy();
    expect(writes()[0]).toMatchObject({ functionName: "makeOffer", value: parseEther("0.2") });
  });
});

describe("Manage Offer", () => {
  it("raises the viewer's live offer by sending the difference, with a new expiry", async () => {
    await openOffer(BUYER, offerOnChain(BUYER, parseEther("0.2"), nowSeconds() + DAY));
    expect(screen.getByRole("heading", { level: 1, name: "Manage Offer" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Cancel offer" })).toBeTruthy();
    typeOffer("Your new offer", "0.3");
    expect(screen.getByText("You send the difference: 0.1 ETH.")).toBeTruthy();
    fireEvent.click(screen.getByRole("radio", { name: "30 days" }));
    fireEvent.click(screen.getByRole("button", { name: "Update Offer" }));
    expect(await screen.findByText(OFFER_TEXT.updated, { selector: "p" })).toBeTruthy();
    expect(writes()[0]).toMatchObject({
      functionName: "makeOffer",
      args: [COLLECTION, 42n, parseEther("0.3"), chain.now + 30n * DAY],
      value: parseEther("0.1"),
    });
  });

  it("shows the viewer's expired offer as expired, with Withdraw (cancelOffer) instead of Cancel offer", async () => {
    const expiresAt = nowSeconds() - 60n;
    await openOffer(BUYER, offerOnChain(BUYER, parseEther("0.2"), expiresAt));
    expect(
      screen.getByText(OFFER_TEXT.expiredOwn(dateTimeText(Number(expiresAt) * 1000), parseEther("0.2"))),
    ).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Cancel offer" })).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Withdraw" }));
    expect(await screen.findByText(OFFER_TEXT.withdrawn, { selector: "p" })).toBeTruthy();
    expect(writes()).toEqual([
      expect.objectContaining({ functionName: "cancelOffer", args: [COLLECTION, 42n] }),
    ]);
  });

  it("renews the viewer's expired offer at the same amount sending nothing, its escrow counting", async () => {
    await openOffer(BUYER, offerOnChain(BUYER, parseEther("0.2"), nowSeconds() - 60n));
    typeOffer("Your new offer", "0.2");
    expect(screen.getByText("You send nothing: your offer is renewed with the new expiry.")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Update Offer" }));
    expect(await screen.findByText(OFFER_TEXT.updated, { selector: "p" })).toBeTruthy();
    expect(writes()[0]).toMatchObject({ functionName: "makeOffer", value: 0n });
  });
});

describe("Accept Offer", () => {
  it("does not offer Accept for an expired offer, and says why", async () => {
    const expiresAt = nowSeconds() - 60n;
    api(CREATOR, offerOnChain(OTHER, parseEther("0.5"), expiresAt));
    await renderApp({ path: `/acceptOffer/${ITEM_PATH}`, config: WITH_MARKET });
    expect(
      await screen.findByText(OFFER_TEXT.expiredAccept(dateTimeText(Number(expiresAt) * 1000))),
    ).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Accept" })).toBeNull();
  });

  it("does not offer Accept while the item is in an auction, and says why", async () => {
    const expiresAt = nowSeconds() + DAY;
    api(CREATOR, offerOnChain(OTHER, parseEther("0.5"), expiresAt), { status: "auction" });
    await renderApp({ path: `/acceptOffer/${ITEM_PATH}`, config: WITH_MARKET });
    expect(await screen.findByText(ITEM_ACTION_TEXT.inAuctionOffers)).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Accept" })).toBeNull();
  });

  it("offers Accept for a live offer and says until when", async () => {
    const expiresAt = nowSeconds() + DAY;
    api(CREATOR, offerOnChain(OTHER, parseEther("0.5"), expiresAt));
    await renderApp({ path: `/acceptOffer/${ITEM_PATH}`, config: WITH_MARKET });
    expect(await screen.findByRole("button", { name: "Accept" })).toBeTruthy();
    expect(
      screen.getByText(new RegExp(`accepted until ${dateTimeText(Number(expiresAt) * 1000)}`)),
    ).toBeTruthy();
  });
});

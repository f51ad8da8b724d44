import { easelCollectionAbi, easelMarketAbi } from "@easel/contracts/abis";
import { fireEvent, screen, within } from "@testing-library/react";
import { toast } from "sonner";
import {
  ContractFunctionRevertedError,
  decodeFunctionData,
  encodeErrorResult,
  encodeFunctionResult,
  type Hex,
  UserRejectedRequestError,
} from "viem";
import { beforeEach, describe, expect, it, vi } from "vitest";
import {
  getBlock,
  readContract,
  signTypedData,
  simulateContract,
  waitForTransactionReceipt,
  writeContract,
} from "wagmi/actions";
import { fakeApi, LOCAL_CONFIG, renderApp, sessionRoute, signedIn } from "../../../test/harness.tsx";
import { COLLECTION, CREATOR, itemFixture } from "../../../test/items.ts";
import type { StepStatus } from "../../../web3/tx/steps.ts";
import { MANAGE_TEXT } from "./FixedPriceManagePage.tsx";
import { FIXED_PRICE_TEXT, listingStepperSteps, RAISE_TEXT } from "./FixedPriceScreens.tsx";

// The wallet and the chain as the flow's actions reach them (the runner and signListing import these); the
// page's hooks (the market's minimum, its approval) read through a fake RPC endpoint below.
vi.mock("wagmi/actions", async (importOriginal) => ({
  ...(await importOriginal<typeof import("wagmi/actions")>()),
  getBlock: vi.fn(),
  readContract: vi.fn(),
  signTypedData: vi.fn(),
  simulateContract: vi.fn(),
  writeContract: vi.fn(),
  waitForTransactionReceipt: vi.fn(),
}));

const MARKET = "0x5fbdb2315678afecb367f032d93f642f64180aa3";
const WITH_MARKET = { ...LOCAL_CONFIG, contracts: { market: MARKET } };
const ITEM_PATH = `${CREATOR}/Studio%20Works/42`;
const LIVE_PRICE = "500000000000000000";
const SIGNATURE = `0x${"ab".repeat(65)}` as Hex;
const HASH = `0x${"12".repeat(32)}` as Hex;

/** The token on chain: its transfer count moves by one when its listings are cancelled. */
const chain = { transferCount: 1n };

const liveOrder = {
  id: "17",
  status: "active",
  pausedReason: null,
  createdAt: "2026-11-20T00:00:00.000Z",
  name: "Harbour at Dawn",
  path: `/${CREATOR}/Studio Works/42`,
  order: {
    collection: COLLECTION,
    tokenId: "42",
    price: LIVE_PRICE,
    seller: CREATOR,
    transferCount: "1",
    counter: "0",
    expiresAt: "1900000000",
    maxFeeBps: 250,
  },
};

/** JSON-RPC answers for the page's reads (wagmi's hooks): the listing minimum (0.1 ETH) and the approval. */
function rpc(init: RequestInit | undefined) {
  const answer = (request: { id: number; method: string; params: unknown[] }) => {
    if (request.method === "eth_chainId") return "0x7a69";
    if (request.method === "eth_blockNumber") return "0x64";
    if (request.method !== "eth_call") throw new Error(`unexpected ${request.method}`);
    const { to, data } = request.params[0] as { to: string; data: Hex };
    if (to.toLowerCase() === MARKET) {
      const call = decodeFunctionData({ abi: easelMarketAbi, data });
      if (call.functionName !== "minimums") throw new Error(`unexpected ${call.functionName}`);
      const tenth = 100_000_000_000_000_000n;
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
    const call = decodeFunctionData({ abi: easelCollectionAbi, data });
    if (call.functionName !== "isApprovedForAll") throw new Error(`unexpected ${call.functionName}`);
    return encodeFunctionResult({ abi: easelCollectionAbi, functionName: "isApprovedForAll", result: true });
  };
  const body = JSON.parse(String(init?.body));
  const one = (request: { id: number; method: string; params: unknown[] }) => ({
    jsonrpc: "2.0",
    id: request.id,
    result: answer(request),
  });
  return { body: Array.isArray(body) ? body.map(one) : one(body) };
}

/** The API: the seller's live signed listing at 0.5 ETH until the chain cancels it, and the book's POST. */
function api() {
  return fakeApi({
    ...sessionRoute({ current: signedIn(CREATOR) }),
    "POST /": rpc,
    "GET /api/nft": () => ({
      body: {
        data: itemFixture({
          status: "fix",
          priceWei: LIVE_PRICE,
          listing: {
            kind: "signed",
            signedId: "17",
            priceWei: LIVE_PRICE,
            seller: CREATOR,
            expiresAt: "2027-03-01T00:00:00.000Z",
          },
        }),
      },
    }),
    "GET /api/signed-listings/mine": () => ({
      body: { counter: "0", data: chain.transferCount === 1n ? [liveOrder] : [] },
    }),
    "POST /api/signed-listings": (init) => ({
      status: 201,
      body: {
        data: {
          id: "18",
          status: "active",
          createdAt: "2026-11-21T00:00:00.000Z",
          order: JSON.parse(String(init?.body)).order,
        },
      },
    }),
    // The runner waits for the indexer between a transaction and the next step.
    "GET /api/health": () => ({
      body: { indexer: { indexedBlock: "100" }, chain: { ok: true, headBlock: "100" } },
    }),
  });
}

const writes = () => vi.mocked(writeContract).mock.calls.map(([, request]) => request.functionName);
const signedMessage = () => vi.mocked(signTypedData).mock.calls[0]?.[1].message as { transferCount: bigint };
const posted = (calls: ReturnType<typeof api>["calls"]) =>
  calls.filter((call) => call.method === "POST" && call.path === "/api/signed-listings");
/** The order the form posted to the book (the only POST of the test). */
const postedOrder = (calls: ReturnType<typeof api>["calls"]) => {
  const [post, ...more] = posted(calls);
  if (!post || more.length > 0) throw new Error(`expected one POST, got ${more.length + (post ? 1 : 0)}`);
  return (post.body as { order: { transferCount: string; price: string } }).order;
};

beforeEach(() => {
  // Toasts live in sonner's module: one test's must not answer the next one's queries.
  toast.dismiss();
  chain.transferCount = 1n;
  vi.mocked(getBlock)
    .mockReset()
    .mockResolvedValue({ timestamp: 1_800_000_000n } as never);
  vi.mocked(readContract)
    .mockReset()
    .mockImplementation((async (_config: unknown, call: { functionName: string }) => {
      switch (call.functionName) {
        case "listingCheck":
          return [CREATOR, true, chain.transferCount];
        case "listingCounterOf":
          return 0n;
        case "config":
          return { primaryFeeBps: 1000, secondaryFeeBps: 250, locked: false, entranceLocked: false };
        case "saleInfo":
          return { primarySold: true };
        default:
          throw new Error(`unexpected read ${call.functionName}`);
      }
    }) as never);
  vi.mocked(signTypedData).mockReset().mockResolvedValue(SIGNATURE);
  vi.mocked(simulateContract)
    .mockReset()
    .mockImplementation((async (_config: unknown, call: unknown) => ({ request: call })) as never);
  vi.mocked(writeContract)
    .mockReset()
    .mockImplementation((async (_config: unknown, request: { functionName: string }) => {
      // Mined: `cancelSignedListing` counts one transfer of the token without moving it.
      if (request.functionName === "cancelSignedListing") chain.transferCount += 1n;
      return HASH;
    }) as never);
  vi.mocked(waitForTransactionReceipt)
    .mockReset()
    .mockResolvedValue({ status: "success", blockNumber: 7n, logs: [] } as never);
});

/** Opens Set a Fixed Price once the market's minimum is read, types `price` and presses the spec's button. */
async function listAt(price: string) {
  await renderApp({ path: `/FixedPrice/set/${ITEM_PATH}`, config: WITH_MARKET });
  await screen.findByText(/^At least 0\.1 ETH/);
  fireEvent.change(screen.getByLabelText("Price"), { target: { value: price } });
  fireEvent.click(screen.getByRole("button", { name: FIXED_PRICE_TEXT.submit }));
}

const WARNING =
  "Your listing at 0.5 ETH stays valid until it is cancelled on chain: anyone can still buy at that price. Cancel it on chain first (one transaction, network fee) and then sign the new price.";

describe("raising the price of a signed listing", () => {
  it("says the lower listing stays valid, then cancels it on chain and signs over the new transfer count", async () => {
    const { calls } = api();
    await listAt("0.8");
    const warning = await screen.findByRole("alertdialog", { name: RAISE_TEXT.title(1) });
    expect(within(warning).getByText(WARNING)).toBeTruthy();
    const cancelFirst = within(warning).getByRole("button", { name: "Cancel on chain, then sign" });
    expect(document.activeElement).toBe(cancelFirst);
    expect(within(warning).getByRole("button", { name: "Sign without cancelling" })).toBeTruthy();
    // Nothing is signed or sent before the seller chooses.
    expect(signTypedData).not.toHaveBeenCalled();
    expect(writeContract).not.toHaveBeenCalled();

    fireEvent.click(cancelFirst);
    expect(await screen.findByText(FIXED_PRICE_TEXT.listed, { selector: "p" })).toBeTruthy();
    expect(writes()).toEqual(["cancelSignedListing"]);
    expect(vi.mocked(writeContract).mock.calls[0]?.[1]).toMatchObject({
      address: MARKET,
      functionName: "cancelSignedListing",
      args: [COLLECTION, 42n],
    });
    // The cancel first, then the signature over the count it moved to.
    expect(vi.mocked(writeContract).mock.invocationCallOrder[0]).toBeLessThan(
      vi.mocked(signTypedData).mock.invocationCallOrder[0] ?? 0,
    );
    expect(signedMessage().transferCount).toBe(2n);
    expect(postedOrder(calls)).toMatchObject({
      transferCount: "2",
      price: "800000000000000000",
    });
    const steps = screen.getByRole("list", { name: FIXED_PRICE_TEXT.stepperHeading });
    expect(
      within(steps)
        .getAllByRole("listitem")
        .map((row) => row.textContent),
    ).toEqual([
      expect.stringMatching(/^1Cancel on chain: your listing at 0\.5 ETH \(done\)/),
      "2Approve (done)",
      "3Confirm (done)",
      "4Finalize (done)",
    ]);
  });

  it("signs over the old transfer count without cancelling when the seller chooses so", async () => {
    const { calls } = api();
    await listAt("0.8");
    const warning = await screen.findByRole("alertdialog", { name: RAISE_TEXT.title(1) });
    fireEvent.click(within(warning).getByRole("button", { name: "Sign without cancelling" }));
    expect(await screen.findByText(FIXED_PRICE_TEXT.listed, { selector: "p" })).toBeTruthy();
    expect(writeContract).not.toHaveBeenCalled();
    expect(signedMessage().transferCount).toBe(1n);
    expect(postedOrder(calls).transferCount).toBe("1");
  });

  it("says nothing more when the new price is lower: it signs at once", async () => {
    const { calls } = api();
    await listAt("0.3");
    expect(await screen.findByText(FIXED_PRICE_TEXT.listed, { selector: "p" })).toBeTruthy();
    expect(screen.queryByRole("alertdialog")).toBeNull();
    expect(screen.queryByText(/stays valid until it is cancelled on chain/)).toBeNull();
    expect(writeContract).not.toHaveBeenCalled();
    expect(signedMessage().transferCount).toBe(1n);
    expect(postedOrder(calls).transferCount).toBe("1");
  });

  it.each([
    {
      failure: "rejected in the wallet",
      words: "User rejected the request.",
      arrange: () =>
        vi.mocked(writeContract).mockRejectedValue(new UserRejectedRequestError(new Error("denied"))),
    },
    {
      failure: "refused by the contract",
      words: "Only the owner of this item can do this.",
      arrange: () =>
        vi.mocked(simulateContract).mockRejectedValue(
          new ContractFunctionRevertedError({
            abi: easelMarketAbi,
            functionName: "cancelSignedListing",
            data: encodeErrorResult({
              abi: easelMarketAbi,
              errorName: "OnlyTokenOwner",
              args: [CREATOR, COLLECTION],
            }),
          }),
        ),
    },
    {
      failure: "reverted on chain",
      words: "The transaction failed on chain.",
      arrange: () =>
        vi
          .mocked(waitForTransactionReceipt)
          .mockResolvedValue({ status: "reverted", blockNumber: 7n, logs: [] } as never),
    },
  ])("stops without signing when the cancel is $failure, and says why", async ({ words, arrange }) => {
    arrange();
    const { calls } = api();
    await listAt("0.8");
    const warning = await screen.findByRole("alertdialog", { name: RAISE_TEXT.title(1) });
    fireEvent.click(within(warning).getByRole("button", { name: "Cancel on chain, then sign" }));
    // The contract's or the wallet's words (the runner's toast), and where that leaves the seller.
    expect(await screen.findByText(words)).toBeTruthy();
    const back = await screen.findByRole("alertdialog", { name: RAISE_TEXT.title(1) });
    expect(
      within(back).getByText("Your listing at 0.5 ETH was not cancelled, and nothing was signed."),
    ).toBeTruthy();
    expect(within(back).getByRole("button", { name: "Cancel on chain, then sign" })).toBeTruthy();
    expect(signTypedData).not.toHaveBeenCalled();
    expect(posted(calls)).toHaveLength(0);
    expect(screen.queryByText(FIXED_PRICE_TEXT.listed, { selector: "p" })).toBeNull();
    expect(screen.queryByRole("list", { name: FIXED_PRICE_TEXT.stepperHeading })).toBeNull();
  });

  it("says the old listing is cancelled when only the signature after it failed, and lists without asking again", async () => {
    vi.mocked(signTypedData).mockRejectedValueOnce(new UserRejectedRequestError(new Error("denied")));
    const { calls } = api();
    await listAt("0.8");
    const warning = await screen.findByRole("alertdialog", { name: RAISE_TEXT.title(1) });
    fireEvent.click(within(warning).getByRole("button", { name: "Cancel on chain, then sign" }));
    expect(
      await screen.findByText(
        "Your listing at 0.5 ETH is cancelled on chain, but the new price is not listed yet: press List Your NFT to list it.",
      ),
    ).toBeTruthy();
    expect(screen.queryByRole("alertdialog")).toBeNull();
    expect(posted(calls)).toHaveLength(0);
    // Nothing lower is left on chain: the same price now lists at once, over the new count.
    fireEvent.click(screen.getByRole("button", { name: FIXED_PRICE_TEXT.submit }));
    expect(await screen.findByText(FIXED_PRICE_TEXT.listed, { selector: "p" })).toBeTruthy();
    expect(writes()).toEqual(["cancelSignedListing"]);
    expect(vi.mocked(signTypedData).mock.calls.at(-1)?.[1].message).toMatchObject({ transferCount: 2n });
    expect(postedOrder(calls).transferCount).toBe("2");
  });

  it("goes back to the price on Escape, and a changed price asks again", async () => {
    api();
    await listAt("0.8");
    const warning = await screen.findByRole("alertdialog", { name: RAISE_TEXT.title(1) });
    fireEvent.keyDown(warning, { key: "Escape" });
    expect(screen.queryByRole("alertdialog")).toBeNull();
    expect(document.activeElement).toBe(screen.getByLabelText("Price"));
    fireEvent.change(screen.getByLabelText("Price"), { target: { value: "0.4" } });
    fireEvent.click(screen.getByRole("button", { name: FIXED_PRICE_TEXT.submit }));
    expect(await screen.findByText(FIXED_PRICE_TEXT.listed, { selector: "p" })).toBeTruthy();
    expect(signTypedData).toHaveBeenCalledTimes(1);
  });
});

describe("the raise's words and stepper", () => {
  it("names every lower listing, and on chain says the new price is listed on chain", () => {
    expect(RAISE_TEXT.stays(["0.5 ETH", "0.6 ETH"])).toBe(
      "Your listings at 0.5 ETH and 0.6 ETH stay valid until they are cancelled on chain: anyone can still buy at those prices.",
    );
    expect(RAISE_TEXT.advice(2, "chain")).toBe(
      "Cancel them on chain first (one transaction for all of them, network fee) and then list the new price on chain.",
    );
    expect(RAISE_TEXT.notCancelled(["0.5 ETH"], "chain")).toBe(
      "Your listing at 0.5 ETH was not cancelled, and nothing was listed.",
    );
  });

  it("draws the cancel as the first row, before the spec's Approve, Confirm, Finalize", () => {
    const step = (label: string, state: StepStatus["state"]): StepStatus => ({ id: label, label, state });
    const rows = listingStepperSteps(
      [
        step("Cancel on chain: your listing at 0.5 ETH", "done"),
        step("sign", "running"),
        step("post", "waiting"),
      ],
      false,
      "signed",
      true,
    );
    expect(rows.map((row) => `${row.label}:${row.state}`)).toEqual([
      "Cancel on chain: your listing at 0.5 ETH:done",
      "Approve:done",
      "Confirm:running",
      "Finalize:waiting",
    ]);
  });
});

describe("Manage a signed listing", () => {
  it("leads to a new price, saying a higher one leaves this listing valid until cancelled", async () => {
    api();
    await renderApp({ path: `/FixedPrice/manage/${ITEM_PATH}`, config: WITH_MARKET });
    const link = await screen.findByRole("link", { name: MANAGE_TEXT.changePrice });
    expect(link.getAttribute("href")).toBe(`/FixedPrice/set/${ITEM_PATH}`);
    expect(link.parentElement?.textContent).toMatch(/valid on chain until you cancel it/);
  });
});

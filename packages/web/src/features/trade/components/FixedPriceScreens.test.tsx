import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { ALICE, fakeApi, LOCAL_CONFIG, renderApp, sessionRoute, signedIn } from "../../../test/harness.tsx";
import { COLLECTION, CREATOR, itemFixture } from "../../../test/items.ts";
import type { StepStatus } from "../../../web3/tx/steps.ts";
import { signedListingExpiry } from "../lib/signedListing.ts";
import { FIXED_PRICE_TEXT, listingStepperSteps } from "./FixedPriceScreens.tsx";

const MARKET = "0x5fbdb2315678afecb367f032d93f642f64180aa3";
const WITH_MARKET = { ...LOCAL_CONFIG, contracts: { market: MARKET } };
const ITEM_PATH = `${CREATOR}/Studio%20Works/42`;
const signedListing = {
  kind: "signed" as const,
  signedId: "17",
  priceWei: "500000000000000000",
  seller: CREATOR,
  expiresAt: "2027-03-01T00:00:00.000Z",
};

describe("Set Fixed Price", () => {
  it("offers listing by signature as the default and says what each way costs, with the spec's button", async () => {
    fakeApi({
      ...sessionRoute({ current: signedIn(CREATOR) }),
      "GET /api/nft": () => ({ body: { data: itemFixture() } }),
    });
    await renderApp({ path: `/FixedPrice/set/${ITEM_PATH}` });
    await screen.findByRole("heading", { level: 1, name: "Set a Fixed Price" });
    const signed = screen.getByRole("radio", { name: /List by signature/ }) as HTMLInputElement;
    const chain = screen.getByRole("radio", { name: /List on chain/ }) as HTMLInputElement;
    expect(signed.checked).toBe(true);
    expect(chain.checked).toBe(false);
    expect(signed.getAttribute("aria-describedby")).toBeTruthy();
    const signedNote = document.getElementById(signed.getAttribute("aria-describedby") ?? "");
    const chainNote = document.getElementById(chain.getAttribute("aria-describedby") ?? "");
    expect(signedNote?.textContent).toMatch(/^Costs no gas/);
    expect(chainNote?.textContent).toMatch(/^One transaction, paid in gas/);
    fireEvent.click(chain);
    expect(chain.checked).toBe(true);
    expect(signed.checked).toBe(false);
    expect(screen.getByRole("button", { name: "List Your NFT" })).toBeTruthy();
  });

  it("refuses a visitor who does not own the item", async () => {
    fakeApi({
      ...sessionRoute({ current: signedIn(ALICE) }),
      "GET /api/nft": () => ({ body: { data: itemFixture() } }),
    });
    await renderApp({ path: `/FixedPrice/set/${ITEM_PATH}` });
    expect(await screen.findByText(FIXED_PRICE_TEXT.notOwner)).toBeTruthy();
    expect(screen.queryByRole("button", { name: "List Your NFT" })).toBeNull();
  });

  it("refuses its owner while the item is in an auction, in words", async () => {
    fakeApi({
      ...sessionRoute({ current: signedIn(CREATOR) }),
      "GET /api/nft": () => ({ body: { data: itemFixture({ status: "auction" }) } }),
    });
    await renderApp({ path: `/FixedPrice/set/${ITEM_PATH}` });
    expect(await screen.findByText(FIXED_PRICE_TEXT.inAuction)).toBeTruthy();
    expect(screen.queryByRole("button", { name: "List Your NFT" })).toBeNull();
    expect(screen.queryByRole("radio", { name: /List by signature/ })).toBeNull();
  });
});

describe("the listing stepper", () => {
  const step = (label: string, state: StepStatus["state"], hash?: `0x${string}`): StepStatus => ({
    id: label,
    label,
    state,
    ...(hash ? { hash } : {}),
  });
  const labels = (steps: StepStatus[]) => steps.map((s) => `${s.label}:${s.state}`);

  it("is always Approve, Confirm, Finalize, the approval done already when the collection was approved", () => {
    expect(
      labels(listingStepperSteps([step("sign", "running"), step("post", "waiting")], false, "signed")),
    ).toEqual(["Approve:done", "Confirm:running", "Finalize:waiting"]);
    expect(
      labels(
        listingStepperSteps(
          [step("Approving...", "done"), step("sign", "done"), step("post", "running")],
          true,
          "signed",
        ),
      ),
    ).toEqual(["Approve:done", "Confirm:done", "Finalize:running"]);
    expect(
      labels(listingStepperSteps([step("Approving...", "failed"), step("sign", "waiting")], true, "signed")),
    ).toEqual(["Approve:failed", "Confirm:waiting", "Finalize:waiting"]);
  });

  it("on chain, Confirm is the transaction sent and Finalize its mining", () => {
    expect(labels(listingStepperSteps([step("list", "running")], false, "chain"))).toEqual([
      "Approve:done",
      "Confirm:running",
      "Finalize:waiting",
    ]);
    expect(labels(listingStepperSteps([step("list", "running", "0xabc")], false, "chain"))).toEqual([
      "Approve:done",
      "Confirm:done",
      "Finalize:running",
    ]);
    expect(
      labels(listingStepperSteps([step("a", "done"), step("list", "done", "0xabc")], true, "chain")),
    ).toEqual(["Approve:done", "Confirm:done", "Finalize:done"]);
  });

  it("signs an expiry inside 100 days of both the chain's clock and the API's", () => {
    const now = 1_900_000_000n;
    const days100 = 100n * 86_400n;
    for (const [chain, clock] of [
      [now, now],
      [now + 86_400n, now],
      [now, now + 86_400n],
    ] as const) {
      const expiry = signedListingExpiry(chain, clock);
      expect(expiry).toBeLessThan(chain + days100);
      expect(expiry).toBeLessThan(clock + days100);
      expect(expiry).toBeGreaterThan(now + days100 - 2n * 3_600n);
    }
  });
});

describe("Buy Now of a signed listing", () => {
  it("asks the API to recheck the order first, and a stale one never reaches the wallet", async () => {
    const api = fakeApi({
      ...sessionRoute({ current: signedIn(ALICE) }),
      "GET /api/nft": () => ({
        body: {
          data: itemFixture({ status: "fix", priceWei: signedListing.priceWei, listing: signedListing }),
        },
      }),
      "GET /api/signed-listings/fill": () => ({
        status: 404,
        body: { error: { code: "NOT_FOUND", message: "This listing is no longer available." } },
      }),
    });
    await renderApp({ path: `/FixedPrice/buy/${ITEM_PATH}`, config: WITH_MARKET });
    fireEvent.click(await screen.findByRole("button", { name: "Buy Now" }));
    expect(await screen.findByText(FIXED_PRICE_TEXT.gone, { selector: "p" })).toBeTruthy();
    const fill = api.fetchMock.mock.calls
      .map(([input]) => new URL(String(input), "http://localhost"))
      .find((url) => url.pathname === "/api/signed-listings/fill");
    expect(fill?.searchParams.get("collection")).toBe(COLLECTION);
    expect(fill?.searchParams.get("tokenId")).toBe("42");
    // The item is read again, so every view drops the listing.
    await waitFor(() =>
      expect(api.calls.filter((call) => call.path === "/api/nft").length).toBeGreaterThanOrEqual(2),
    );
    expect(screen.queryByRole("button", { name: "Buy Now" })).toBeNull();
  });
});

describe("Buy Now of a re-priced signed listing", () => {
  it("stops before the wallet when the API's order asks another price than the one shown", async () => {
    const api = fakeApi({
      ...sessionRoute({ current: signedIn(ALICE) }),
      "GET /api/nft": () => ({
        body: {
          data: itemFixture({ status: "fix", priceWei: signedListing.priceWei, listing: signedListing }),
        },
      }),
      "GET /api/signed-listings/fill": () => ({
        body: {
          data: {
            id: "18",
            signature: `0x${"11".repeat(65)}`,
            order: {
              collection: COLLECTION,
              tokenId: "42",
              price: "900000000000000000",
              seller: CREATOR,
              transferCount: "1",
              counter: "0",
              expiresAt: "1900000000",
            },
          },
        },
      }),
    });
    await renderApp({ path: `/FixedPrice/buy/${ITEM_PATH}`, config: WITH_MARKET });
    fireEvent.click(await screen.findByRole("button", { name: "Buy Now" }));
    expect(await screen.findByText(FIXED_PRICE_TEXT.priceChanged)).toBeTruthy();
    expect(screen.queryByRole("list", { name: "Buying the NFT" })).toBeNull();
    await waitFor(() =>
      expect(api.calls.filter((call) => call.path === "/api/nft").length).toBeGreaterThanOrEqual(2),
    );
  });
});

describe("Manage a signed listing", () => {
  const routes = () => ({
    ...sessionRoute({ current: signedIn(CREATOR) }),
    "GET /api/nft": () => ({
      body: {
        data: itemFixture({ status: "fix", priceWei: signedListing.priceWei, listing: signedListing }),
      },
    }),
    "DELETE /api/signed-listings/17": () => ({
      body: {
        data: {
          id: "17",
          status: "hidden",
          createdAt: "2026-11-20T00:00:00.000Z",
          order: {
            collection: COLLECTION,
            tokenId: "42",
            price: signedListing.priceWei,
            seller: CREATOR,
            transferCount: "1",
            counter: "0",
            expiresAt: "1900000000",
          },
        },
      },
    }),
  });

  it("offers hiding (no gas, still valid on chain), cancelling on chain and cancelling all, each explained", async () => {
    fakeApi(routes());
    await renderApp({ path: `/FixedPrice/manage/${ITEM_PATH}`, config: WITH_MARKET });
    await screen.findByRole("heading", { level: 1, name: "Manage your listing" });
    expect(screen.getByText(/Listed by signature, until/)).toBeTruthy();
    const hide = screen.getByRole("button", { name: "Hide listing" });
    expect(hide.parentElement?.textContent).toMatch(
      /with no gas\. Your signature stays valid on chain until you cancel it/,
    );
    const cancel = screen.getByRole("button", { name: "Cancel on chain" });
    expect(cancel.parentElement?.textContent).toMatch(
      /One transaction: this listing can never be used again/,
    );
    const all = screen.getByRole("button", { name: "Cancel all my signed listings" });
    expect(all.parentElement?.textContent).toMatch(/every listing you have signed so far unusable/);
    fireEvent.click(cancel);
    const question = screen.getByRole("alertdialog", { name: "Unlist" });
    expect(within(question).getByText("Are you going to unlist your item?")).toBeTruthy();
    fireEvent.click(within(question).getByRole("button", { name: "Keep it in market" }));
    fireEvent.click(screen.getByRole("button", { name: "Cancel all my signed listings" }));
    expect(screen.getByText("Cancel every listing you have signed so far?")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Keep them" }));
    expect(screen.queryByRole("alertdialog")).toBeNull();
  });

  it("hides the listing through the API, and says it stays valid on chain", async () => {
    const api = fakeApi(routes());
    await renderApp({ path: `/FixedPrice/manage/${ITEM_PATH}`, config: WITH_MARKET });
    fireEvent.click(await screen.findByRole("button", { name: "Hide listing" }));
    expect(
      await screen.findByText(
        "Your listing is hidden on Easel. It stays valid on chain until you cancel it.",
        {
          selector: "p",
        },
      ),
    ).toBeTruthy();
    expect(
      api.calls.some((call) => call.method === "DELETE" && call.path === "/api/signed-listings/17"),
    ).toBe(true);
  });

  it("shows a hidden order of the item, still valid on chain, with its on-chain cancel", async () => {
    fakeApi({
      ...sessionRoute({ current: signedIn(CREATOR) }),
      "GET /api/nft": () => ({ body: { data: itemFixture() } }),
      "GET /api/signed-listings/mine": () => ({
        body: {
          counter: "0",
          data: [
            {
              id: "9",
              status: "hidden",
              createdAt: "2026-11-20T00:00:00.000Z",
              name: "Harbour at Dawn",
              path: `/${CREATOR}/Studio Works/42`,
              order: {
                collection: COLLECTION,
                tokenId: "42",
                price: "700000000000000000",
                seller: CREATOR,
                transferCount: "1",
                counter: "0",
                expiresAt: "1900000000",
              },
            },
            {
              id: "10",
              status: "hidden",
              createdAt: "2026-11-20T00:00:00.000Z",
              name: "Another work",
              path: null,
              order: {
                collection: COLLECTION,
                tokenId: "43",
                price: "1",
                seller: CREATOR,
                transferCount: "1",
                counter: "0",
                expiresAt: "1900000000",
              },
            },
          ],
        },
      }),
    });
    await renderApp({ path: `/FixedPrice/manage/${ITEM_PATH}`, config: WITH_MARKET });
    expect(await screen.findByText(FIXED_PRICE_TEXT.notListed)).toBeTruthy();
    const panel = await screen.findByRole("region", { name: "Hidden, but still valid on chain" });
    expect(
      within(panel).getByText(/0\.7 ETH · Hidden on Easel, still valid on chain until you cancel it/),
    ).toBeTruthy();
    expect(within(panel).getByRole("button", { name: "Cancel on chain: Harbour at Dawn" })).toBeTruthy();
    expect(within(panel).queryByText("Another work")).toBeNull();
  });
});

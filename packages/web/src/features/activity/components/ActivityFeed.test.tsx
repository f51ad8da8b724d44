import type { FeedRow } from "@easel/common";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { fakeApi, renderApp, SIGNED_OUT, sessionRoute } from "../../../test/harness.tsx";

const SELLER = "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc";
const BUYER = "0x90f79bf6eb2c4f870365e785982e1f101e93b906";
const HARBOUR = "0x5fbdb2315678afecb367f032d93f642f64180aa3";
const MEADOW = "0xe7f1725e7734ce288f8367e1bb143e90bb3f0512";

/** A stand-in EventSource the test feeds by hand. */
class FakeSource {
  static last: FakeSource | null = null;
  listeners = new Map<string, ((event: Event) => void)[]>();
  constructor(readonly url: string) {
    FakeSource.last = this;
  }
  addEventListener(type: string, listener: (event: Event) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  dispatch(type: string, data?: unknown) {
    const event = Object.assign(new Event(type), data === undefined ? {} : { data: JSON.stringify(data) });
    for (const listener of this.listeners.get(type) ?? []) listener(event);
  }
  close() {}
}

const row = (n: number, overrides: Partial<FeedRow> = {}): FeedRow => ({
  id: `${100 - n}:0:0`,
  kind: "sale",
  collection: { address: HARBOUR, name: "Harbour Lights" },
  tokenId: String(n),
  itemName: `Harbour Lights #${n}`,
  itemPath: `/${SELLER}/Harbour%20Lights/${n}`,
  image_cid: null,
  from: { address: SELLER, name: "Ada Lovelace", username: "ada", ens: null },
  to: { address: BUYER, name: null, username: null, ens: null },
  priceWei: "1500000000000000000",
  txHash: `0x${"ab".repeat(32)}`,
  time: "2026-11-20T10:00:00.000Z",
  ...overrides,
});

describe("the activity feed", () => {
  beforeEach(() => vi.stubGlobal("EventSource", FakeSource));
  afterEach(() => vi.unstubAllGlobals());

  it("lists the market's activity with items, prices and people, filters it and pages on", async () => {
    const asked: string[] = [];
    fakeApi({
      ...sessionRoute({ current: SIGNED_OUT }),
      "GET /api/activity": (_init, url) => {
        asked.push(url.search);
        const kind = url.searchParams.get("kind");
        const collection = url.searchParams.get("collection");
        if (url.searchParams.get("cursor") === "next")
          return { body: { data: { activity: [row(3, { kind: "offer", to: null })], nextCursor: null } } };
        if (kind === "bid")
          return {
            body: {
              data: {
                activity: [
                  row(5, {
                    kind: "bid",
                    from: { address: BUYER, name: null, username: null, ens: null },
                    to: null,
                  }),
                ],
                nextCursor: null,
              },
            },
          };
        if (collection === MEADOW)
          return {
            body: {
              data: {
                activity: [
                  row(9, {
                    kind: "list",
                    collection: { address: MEADOW, name: "Meadow" },
                    itemName: "Meadow #9",
                    to: null,
                  }),
                ],
                nextCursor: null,
              },
            },
          };
        return {
          body: {
            data: {
              activity: [
                row(1),
                row(2, {
                  kind: "auction",
                  to: null,
                  collection: { address: MEADOW, name: "Meadow" },
                  itemName: "Meadow #2",
                }),
              ],
              nextCursor: "next",
            },
          },
        };
      },
    });
    const { router } = await renderApp({ path: "/activity" });
    expect(await screen.findByRole("heading", { level: 1, name: "Activity" })).toBeTruthy();
    const list = await screen.findByRole("list", { name: "Activity, newest first" });
    const [sale, auction] = within(list).getAllByTestId("feed-row") as [HTMLElement, HTMLElement];
    expect(within(sale).getByText("Sale")).toBeTruthy();
    expect(within(sale).getByRole("link", { name: "Harbour Lights #1" }).getAttribute("href")).toBe(
      `/${SELLER}/Harbour%20Lights/1`,
    );
    expect(within(sale).getByText("1.5 ETH")).toBeTruthy();
    expect(within(sale).getByRole("link", { name: "Ada Lovelace" }).getAttribute("href")).toBe(
      `/profile/${SELLER}`,
    );
    expect(within(sale).getByRole("link", { name: "0x90…b906" })).toBeTruthy();
    expect(within(auction).getByText("Auction started")).toBeTruthy();
    expect(within(auction).getByText(/^by/)).toBeTruthy();

    // The next page comes after the cursor.
    fireEvent.click(screen.getByRole("button", { name: "Load more" }));
    expect(await screen.findByText("Harbour Lights #3")).toBeTruthy();
    expect(asked).toContain("?cursor=next");

    // By kind: the URL keeps the filter.
    fireEvent.change(screen.getByLabelText("Show"), { target: { value: "bid" } });
    expect(await screen.findByText("Harbour Lights #5")).toBeTruthy();
    expect(router.state.location.search).toBe("?kind=bid");
    fireEvent.change(screen.getByLabelText("Show"), { target: { value: "" } });
    await screen.findByText("Harbour Lights #1");

    // A row's collection filters by it, and the chip clears it.
    fireEvent.click(
      within(screen.getAllByTestId("feed-row")[1] as HTMLElement).getByRole("button", { name: "Meadow" }),
    );
    expect(await screen.findByText("Meadow #9")).toBeTruthy();
    expect(router.state.location.search).toBe(`?collection=${MEADOW}`);
    fireEvent.click(screen.getByRole("button", { name: "Show every collection" }));
    await waitFor(() => expect(router.state.location.search).toBe(""));
  });

  it("follows every batch on the event stream, and refetches on each", async () => {
    let calls = 0;
    fakeApi({
      ...sessionRoute({ current: SIGNED_OUT }),
      "GET /api/activity": () => {
        calls += 1;
        return { body: { data: { activity: calls > 1 ? [row(2), row(1)] : [row(1)], nextCursor: null } } };
      },
    });
    await renderApp({ path: "/activity" });
    await screen.findByText("Harbour Lights #1");
    const stream = FakeSource.last as FakeSource;
    expect(stream.url).toBe("/api/events");
    stream.dispatch("chain", { from: "5", to: "5", tokens: [`${HARBOUR}:2`] });
    expect(await screen.findByText("Harbour Lights #2")).toBeTruthy();
  });

  it("says when there is nothing yet", async () => {
    fakeApi({
      ...sessionRoute({ current: SIGNED_OUT }),
      "GET /api/activity": () => ({ body: { data: { activity: [], nextCursor: null } } }),
    });
    await renderApp({ path: "/activity" });
    expect(await screen.findByText("No activity yet.")).toBeTruthy();
  });
});

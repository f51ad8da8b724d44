import { fireEvent, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { PRICE_MESSAGES } from "../../../lib/eth.ts";
import { fakeApi, LOCAL_CONFIG, renderApp, sessionRoute, signedIn } from "../../../test/harness.tsx";
import { COLLECTION, CREATOR } from "../../../test/items.ts";
import { LIST_SEVERAL_TEXT } from "./ListSeveralPage.tsx";

const WITH_MARKET = { ...LOCAL_CONFIG, contracts: { market: "0x5fbdb2315678afecb367f032d93f642f64180aa3" } };

const work = (tokenId: string, name: string, signedPriceWei: string | null = null) => ({
  collection: COLLECTION,
  collectionName: "Studio Works",
  tokenId,
  name,
  imageCid: null,
  path: `/${CREATOR}/Studio%20Works/${tokenId}`,
  signedPriceWei,
});

describe("List several", () => {
  it("lists the seller's works of the collection, selects them all at once and asks a price", async () => {
    const api = fakeApi({
      ...sessionRoute({ current: signedIn(CREATOR) }),
      "GET /api/signed-listings/listable": () => ({
        body: { data: [work("1", "Harbour at Dawn"), work("2", "Quay at Noon", "200000000000000000")] },
      }),
    });
    await renderApp({ path: `/List/several?collection=${COLLECTION}`, config: WITH_MARKET });
    expect(await screen.findByRole("heading", { name: LIST_SEVERAL_TEXT.title })).toBeTruthy();
    // The works shown came from the request for this collection (the heading may come before it is sent).
    expect(await screen.findByText("Harbour at Dawn")).toBeTruthy();
    const listable = api.fetchMock.mock.calls
      .map(([input]) => new URL(String(input), "http://localhost"))
      .find((url) => url.pathname === "/api/signed-listings/listable");
    expect(listable?.searchParams.get("collection")).toBe(COLLECTION);
    expect(screen.getByText(LIST_SEVERAL_TEXT.listedAt("200000000000000000"))).toBeTruthy();
    // Nothing chosen yet: the form says so, beside the selection.
    fireEvent.click(screen.getByRole("button", { name: LIST_SEVERAL_TEXT.submit(0) }));
    expect(await screen.findByText("Choose at least one work")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: LIST_SEVERAL_TEXT.allInCollection }));
    const boxes = screen.getAllByRole("checkbox") as HTMLInputElement[];
    expect(boxes.map((b) => b.checked)).toEqual([true, true]);
    // One price for all: an empty price is refused in the spec's words, before the wallet opens.
    fireEvent.click(screen.getByRole("button", { name: LIST_SEVERAL_TEXT.submit(2) }));
    expect(await screen.findByText(PRICE_MESSAGES.required)).toBeTruthy();
    expect(api.calls.some((call) => call.path === "/api/signed-listings/bulk")).toBe(false);
  });

  it("asks a price of each chosen work in 'A price each'", async () => {
    fakeApi({
      ...sessionRoute({ current: signedIn(CREATOR) }),
      "GET /api/signed-listings/listable": () => ({
        body: { data: [work("1", "Harbour at Dawn"), work("2", "Quay at Noon")] },
      }),
    });
    await renderApp({ path: "/List/several", config: WITH_MARKET });
    // Without a collection, every work the seller owns: "Select all".
    const first = (await screen.findByText("Harbour at Dawn")).closest("li") as HTMLElement;
    fireEvent.click(within(first).getByRole("checkbox"));
    fireEvent.click(screen.getByRole("radio", { name: LIST_SEVERAL_TEXT.eachPrice }));
    const price = screen.getByLabelText(LIST_SEVERAL_TEXT.priceOf("Harbour at Dawn"));
    expect(screen.queryByLabelText(LIST_SEVERAL_TEXT.priceOf("Quay at Noon"))).toBeNull();
    fireEvent.change(price, { target: { value: "abc" } });
    fireEvent.click(screen.getByRole("button", { name: LIST_SEVERAL_TEXT.submit(1) }));
    expect(await within(first).findByText(PRICE_MESSAGES.invalid)).toBeTruthy();
    expect(screen.getByRole("button", { name: LIST_SEVERAL_TEXT.selectAll })).toBeTruthy();
  });

  it("says so when the seller owns nothing that can be listed", async () => {
    fakeApi({
      ...sessionRoute({ current: signedIn(CREATOR) }),
      "GET /api/signed-listings/listable": () => ({ body: { data: [] } }),
    });
    await renderApp({ path: "/List/several", config: WITH_MARKET });
    expect(await screen.findByText(LIST_SEVERAL_TEXT.none)).toBeTruthy();
  });
});

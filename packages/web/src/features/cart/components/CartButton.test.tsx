import type { CartQuote, NftCard as NftCardData } from "@easel/common";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { ALICE, fakeApi, renderApp, sessionRoute, signedIn } from "../../../test/harness.tsx";
import { NftCard } from "../../browse/components/NftCard.tsx";
import { cartStore } from "../lib/cartStore.ts";
import { CartButton } from "./CartButton.tsx";

const ME = ALICE.toLowerCase();
const SELLER = "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc";
const CAROL = "0x90f79bf6eb2c4f870365e785982e1f101e93b906";
const ETH = 10n ** 18n;

const work = (tokenId: string, priceWei: bigint) => ({
  collection: "0xc0",
  tokenId,
  name: `Low tide #${tokenId}`,
  image: null,
  path: `/${SELLER}/${tokenId}`,
  priceWei: priceWei.toString(),
});

const line = (tokenId: string, more: Partial<CartQuote["lines"][number]>): CartQuote["lines"][number] => ({
  collection: "0xc0",
  tokenId,
  name: `Low tide #${tokenId}`,
  path: null,
  image: null,
  seller: null,
  priceWei: null,
  unavailable: null,
  message: null,
  soldTo: null,
  listed: null,
  signed: null,
  ...more,
});

function card(tokenId: string, owner: string): NftCardData {
  return {
    _id: `0xc0:${tokenId}`,
    collection: { address: "0xc0", name: "Studio Works", kind: "standard" },
    tokenId,
    name: `Low tide #${tokenId}`,
    creator: SELLER,
    owner,
    status: "fix",
    image_cid: null,
    videoCid: null,
    category: "Painting",
    royaltyBps: 1000,
    collaborators: [],
    price: "0.5",
    priceWei: (ETH / 2n).toString(),
    lastPriceWei: null,
    creatorData: null,
    collaboratorsData: [],
    auctionKind: null,
    endTime: null,
    offerWei: null,
    favorites: 0,
    views: 0,
    isFavorite: false,
    blocked: false,
  };
}

afterEach(() => cartStore.reset());

describe("the header's cart", () => {
  it("counts the works, removes one sold meanwhile with a sentence, and shows prices and the total", async () => {
    cartStore.add(ME, work("1", ETH));
    cartStore.add(ME, work("2", ETH / 2n));
    cartStore.add(ME, work("3", ETH / 4n));
    const { calls } = fakeApi({
      ...sessionRoute({ current: signedIn() }),
      "GET /api/nft/eth-price": () => ({ body: { data: { usd: "2000", updatedAt: "2026-11-29" } } }),
      "POST /api/cart/quote": () => ({
        body: {
          data: {
            totalWei: ((ETH * 3n) / 4n).toString(),
            lines: [
              line("1", {
                unavailable: "sold",
                message: "Sold to Carol",
                soldTo: { address: CAROL, name: "Carol", username: null, ens: null },
              }),
              line("2", {
                priceWei: (ETH / 2n).toString(),
                listed: { collection: "0xc0", tokenId: "2", price: (ETH / 2n).toString() },
              }),
              line("3", {
                priceWei: (ETH / 4n).toString(),
                listed: { collection: "0xc0", tokenId: "3", price: (ETH / 4n).toString() },
              }),
            ],
          } satisfies CartQuote,
        },
      }),
    });
    await renderApp({ routes: [{ path: "/", element: <CartButton /> }] });
    const button = await screen.findByRole("button", { name: "Cart, 2 works" });
    expect(calls.find((c) => c.path === "/api/cart/quote")?.body).toEqual({
      items: [
        { collection: "0xc0", tokenId: "1" },
        { collection: "0xc0", tokenId: "2" },
        { collection: "0xc0", tokenId: "3" },
      ],
    });
    expect(cartStore.list(ME).map((w) => w.tokenId)).toEqual(["2", "3"]);
    fireEvent.click(button);
    const drawer = await screen.findByRole("dialog", { name: "Your cart" });
    expect(within(drawer).getByText("Low tide #1: Sold to Carol while in your cart")).toBeTruthy();
    const works = within(drawer).getByRole("list", { name: "Works in your cart" });
    expect(within(works).getAllByRole("listitem")).toHaveLength(2);
    expect(within(drawer).getByTestId("cart-total").textContent).toBe("0.75 ETH");
    expect(await within(drawer).findByText("≈ $1,500.00")).toBeTruthy();
  });

  it("is per wallet and hidden while signed out", async () => {
    cartStore.add("0x00000000000000000000000000000000000000b0", work("1", ETH));
    fakeApi({ ...sessionRoute({ current: signedIn() }) });
    await renderApp({ routes: [{ path: "/", element: <CartButton /> }] });
    expect(await screen.findByRole("button", { name: "Cart, 0 works" })).toBeTruthy();
  });
});

describe("Add to cart on a card", () => {
  it("adds a work for sale at a fixed price, takes it out again, and is not offered on the viewer's own work", async () => {
    fakeApi({ ...sessionRoute({ current: signedIn() }) });
    await renderApp({
      routes: [
        {
          path: "/",
          element: (
            <>
              <NftCard nft={card("7", SELLER)} />
              <NftCard nft={card("8", ME)} />
            </>
          ),
        },
      ],
    });
    const add = await screen.findByRole("button", { name: "Add to cart: Low tide #7" });
    // Once the session is read, the viewer's own work has no button.
    await waitFor(() =>
      expect(screen.queryByRole("button", { name: "Add to cart: Low tide #8" })).toBeNull(),
    );
    fireEvent.click(add);
    expect(cartStore.list(ME)).toEqual([
      expect.objectContaining({ collection: "0xc0", tokenId: "7", priceWei: (ETH / 2n).toString() }),
    ]);
    const remove = await screen.findByRole("button", { name: "Remove from cart: Low tide #7" });
    expect(remove.getAttribute("aria-pressed")).toBe("true");
    fireEvent.click(remove);
    expect(cartStore.list(ME)).toEqual([]);
  });
});

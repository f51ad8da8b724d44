import type { NftCard as NftCardData } from "@easel/common";
import { cleanup, screen } from "@testing-library/react";
import { act } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fakeApi, renderApp } from "../../../test/harness.tsx";
import { NftCard } from "./NftCard.tsx";

const CREATOR = "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc";

function card(endTime: string): NftCardData {
  return {
    _id: `0xc0:7`,
    collection: { address: "0xc0", name: "Studio Works", kind: "standard" },
    tokenId: "7",
    name: "Low tide",
    creator: CREATOR,
    owner: CREATOR,
    status: "auction",
    image_cid: null,
    category: "Painting",
    royaltyBps: 1000,
    collaborators: [],
    price: "1",
    priceWei: "1000000000000000000",
    lastPriceWei: null,
    creatorData: null,
    collaboratorsData: [],
    auctionKind: "standard",
    endTime,
    offerWei: null,
    favorites: 0,
    views: 0,
    isFavorite: false,
    blocked: false,
  };
}

async function show(nft: NftCardData) {
  fakeApi({});
  await renderApp({ routes: [{ path: "/", element: <NftCard nft={nft} /> }] });
  await screen.findByText("Low tide");
}

describe("an auction's card", () => {
  it("counts down to the end", async () => {
    await show(card(new Date(Date.now() + 86_400_000 + 60_000).toISOString()));
    expect(screen.getByText(/^Ends in 1d 0h 0m/)).toBeTruthy();
  });

  it("says the auction ended once its end has passed, not 'Ends in 0d 0h 0m 0s'", async () => {
    await show(card(new Date(Date.now() - 1_000).toISOString()));
    expect(screen.getByText("Auction ended")).toBeTruthy();
    expect(screen.queryByText(/Ends in/)).toBeNull();
  });
});

describe("an unsold lazy item's card", () => {
  const lazy = (priceWei: string | null): NftCardData => ({
    ...card(new Date().toISOString()),
    collection: { address: "0xc0", name: "Open Studio", kind: "lazy" },
    status: "lazy",
    price: priceWei ? "0.3" : null,
    priceWei,
    auctionKind: null,
    endTime: null,
  });

  it("says it is minted at purchase, with its price", async () => {
    await show(lazy("300000000000000000"));
    expect(screen.getByTestId("card-lazy").textContent).toBe("Minted at purchase");
    expect(screen.getByText("Price")).toBeTruthy();
    expect(screen.getByText("0.3 ETH")).toBeTruthy();
  });

  it("is not for sale once its listing's term ran out", async () => {
    await show(lazy(null));
    expect(screen.getByTestId("card-lazy")).toBeTruthy();
    expect(screen.getByText("Not for sale")).toBeTruthy();
  });
});

describe("a card's picture", () => {
  const picture = () => screen.getByAltText("Low tide") as HTMLImageElement;

  it("keeps pixel art's pixels crisp, and leaves other types to smooth scaling", async () => {
    const base = { ...card(new Date(Date.now() + 60_000).toISOString()), image_cid: "bafkreipixel" };
    await show({ ...base, category: "Pixel Art" });
    expect(picture().style.imageRendering).toBe("pixelated");
    cleanup();
    await show({ ...base, category: "Painting" });
    expect(picture().style.imageRendering).toBe("");
    cleanup();
    await show({ ...base, category: null });
    expect(picture().style.imageRendering).toBe("");
  });
});

describe("a video's card", () => {
  /** An IntersectionObserver whose entries the test gives: `show(true)` brings the card into view. */
  function fakeObserver() {
    const observers: { callback: IntersectionObserverCallback; target: Element | null }[] = [];
    class FakeObserver {
      entry: (typeof observers)[number];
      constructor(callback: IntersectionObserverCallback) {
        this.entry = { callback, target: null };
        observers.push(this.entry);
      }
      observe(target: Element) {
        this.entry.target = target;
      }
      unobserve() {}
      disconnect() {}
    }
    vi.stubGlobal("IntersectionObserver", FakeObserver);
    return (isIntersecting: boolean) =>
      act(() => {
        for (const o of observers)
          o.callback(
            [{ isIntersecting, target: o.target } as IntersectionObserverEntry],
            o as unknown as IntersectionObserver,
          );
      });
  }
  const play = vi.spyOn(HTMLMediaElement.prototype, "play");
  const pause = vi.spyOn(HTMLMediaElement.prototype, "pause");
  afterEach(() => {
    play.mockReset();
    pause.mockReset();
  });
  const videoCard = () => ({
    ...card(new Date(Date.now() + 60_000).toISOString()),
    image_cid: "bafkreiposter",
    videoCid: "bafkreivideo",
  });

  it("shows its poster and loads nothing until in view, then plays muted and looping; pauses out of view", async () => {
    play.mockResolvedValue(undefined);
    pause.mockImplementation(() => {});
    const view = fakeObserver();
    await show(videoCard());
    const video = screen.getByLabelText("Low tide") as HTMLVideoElement;
    expect(video.tagName).toBe("VIDEO");
    expect(video.getAttribute("poster")).toMatch(/bafkreiposter$/);
    expect(video.getAttribute("src")).toBeNull();
    expect(video.getAttribute("preload")).toBe("none");
    expect(video.muted).toBe(true);
    expect(video.loop).toBe(true);
    expect(video.hasAttribute("playsinline")).toBe(true);
    expect(play).not.toHaveBeenCalled();

    view(true);
    expect(video.getAttribute("src")).toMatch(/bafkreivideo$/);
    expect(play).toHaveBeenCalledTimes(1);
    view(false);
    expect(pause).toHaveBeenCalled();
  });

  it("stays on its poster for a visitor who asks for reduced motion", async () => {
    vi.stubGlobal("matchMedia", (query: string) => ({
      matches: query.includes("reduce"),
      media: query,
      addEventListener() {},
      removeEventListener() {},
    }));
    const view = fakeObserver();
    await show(videoCard());
    view(true);
    const video = screen.getByLabelText("Low tide") as HTMLVideoElement;
    expect(video.getAttribute("src")).toBeNull();
    expect(play).not.toHaveBeenCalled();
  });

  it("is a picture when the artwork is not a video", async () => {
    await show({ ...videoCard(), videoCid: null });
    expect((screen.getByAltText("Low tide") as HTMLElement).tagName).toBe("IMG");
  });
});

import { afterEach, describe, expect, it } from "vitest";
import { type CartWork, cartStore } from "./cartStore.ts";

const ALICE = "0x70997970c51812dc3a010c7d01b50e0d17dc79c8";
const BOB = "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc";
const work = (tokenId: string): CartWork => ({
  collection: "0xC0",
  tokenId,
  name: `Low tide #${tokenId}`,
  image: null,
  path: `/0xc0/${tokenId}`,
  priceWei: "1000",
});

afterEach(() => cartStore.reset());

describe("the cart store", () => {
  it("keeps one cart per wallet in localStorage, so it survives a reload", () => {
    expect(cartStore.add(ALICE, work("1"))).toBe(true);
    expect(cartStore.add(ALICE, work("2"))).toBe(true);
    expect(cartStore.add(BOB, work("3"))).toBe(true);
    expect(JSON.parse(window.localStorage.getItem(`easel.cart.${ALICE}`) ?? "[]")).toHaveLength(2);
    // A reload: nothing cached, read from storage again.
    cartStore.reset();
    expect(cartStore.list(ALICE).map((w) => w.tokenId)).toEqual(["1", "2"]);
    expect(cartStore.list(BOB).map((w) => w.tokenId)).toEqual(["3"]);
    expect(cartStore.list(ALICE)[0]?.collection).toBe("0xc0");
  });

  it("holds a work once and at most 50 works", () => {
    cartStore.add(ALICE, work("1"));
    expect(cartStore.add(ALICE, { ...work("1"), collection: "0xc0" })).toBe(false);
    for (let i = 2; i <= 50; i++) cartStore.add(ALICE, work(String(i)));
    expect(cartStore.add(ALICE, work("51"))).toBe(false);
    expect(cartStore.list(ALICE)).toHaveLength(50);
  });

  it("removes works by key and forgets a cart emptied or cleared by the app on sign-out", () => {
    cartStore.add(ALICE, work("1"));
    cartStore.add(ALICE, work("2"));
    cartStore.remove(ALICE, ["0xc0:1"]);
    expect(cartStore.list(ALICE).map((w) => w.tokenId)).toEqual(["2"]);
    window.localStorage.clear();
    expect(cartStore.list(ALICE)).toEqual([]);
  });
});

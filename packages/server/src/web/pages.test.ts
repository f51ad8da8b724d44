import { describe, expect, it } from "vitest";
import { pageOf } from "./pages.ts";

describe("the page a path shows", () => {
  it.each([
    ["/", { page: "home" }],
    ["/ExploreNFTs", { page: "explore" }],
    ["/collection/Night%20Drift", { page: "collection", name: "Night Drift" }],
    ["/profile/mira", { page: "profile", key: "mira" }],
    ["/mira/7", { page: "item", creator: "mira", collection: undefined, tokenId: "7" }],
    ["/mira/Night%20Drift/12", { page: "item", creator: "mira", collection: "Night Drift", tokenId: "12" }],
  ])("%s", (path, page) => {
    expect(pageOf(path)).toEqual(page);
  });

  it.each([
    // The app's own routes of two or three segments, never an item's.
    "/profile/edit/mira",
    "/collections/edit/mira",
    "/offer/mira/7",
    "/acceptOffer/mira/Night%20Drift/7",
    "/newsletter/confirm",
    "/collection/Night%20Drift/7",
    // Not a token id: zero, a leading zero, a letter, 79 digits.
    "/mira/0",
    "/mira/07",
    "/mira/7a",
    `/mira/${"9".repeat(79)}`,
    // Other pages, and paths that do not decode.
    "/profile",
    "/FAQ",
    "/FixedPrice/buy/mira/7",
    "/mira/%E0%A4%A/7",
  ])("%s is no landing page", (path) => {
    expect(pageOf(path)).toBeNull();
  });
});

import type { ItemMedia } from "@easel/common";
import { describe, expect, it } from "vitest";
import { type FirstPaint, LEAD_MARK, pageLead, withFirstPaint } from "./firstPaint.ts";

/** A marketplace answer with one card, as GET /api/explore answers (the fields the first paint reads). */
const explore = (card: Record<string, unknown>) => ({
  data: {
    nfts: [
      {
        name: "Tide Line",
        image_cid: "bafkreicard",
        tokenId: "7",
        creator: "mira",
        owner: "0xowner",
        collection: { address: "0xc011", name: "Night Drift", kind: "standard" },
        status: "fix",
        priceWei: "1500000000000000000",
        offerWei: null,
        lastPriceWei: null,
        category: "Painting",
        ...card,
      },
    ],
  },
});

describe("the marketplace's first paint", () => {
  it("draws its first card as NftCard does: picture at high priority, name, collection, price, its item's link", () => {
    const lead = pageLead({ page: "explore" }, explore({}));
    expect(lead?.picture).toBe("/ipfs/bafkreicard");
    expect(lead?.html).toContain(
      '<a href="/mira/Night%20Drift/7" class="block"><img src="/ipfs/bafkreicard" alt="Tide Line" loading="eager" fetchpriority="high" class="aspect-square',
    );
    expect(lead?.html).toContain('<span class="font-semibold">1.5 ETH</span>');
    expect(lead?.html).toContain("Night Drift</p>");
    expect(lead?.html).toContain('<option value="recentlyCreated" selected>Recently Created</option>');
    // The default collection's item path has no collection segment; pixel art is drawn pixelated.
    const plain = pageLead(
      { page: "explore" },
      explore({ collection: { address: "0xd", name: null, kind: "default" }, category: "Pixel Art" }),
    );
    expect(plain?.html).toContain('<a href="/mira/7" class="block">');
    expect(plain?.html).toContain('style="image-rendering: pixelated"');
  });

  it("says a price only as the card does, and draws nothing without a card or a picture", () => {
    const offer = pageLead(
      { page: "explore" },
      explore({ status: "minted", priceWei: "5", offerWei: "20000000000000000" }),
    );
    expect(offer?.html).toContain('Offer </span><span class="font-semibold">0.02 ETH</span>');
    expect(pageLead({ page: "explore" }, explore({ status: "minted" }))?.html).toContain("Not for sale");
    expect(pageLead({ page: "explore" }, { data: { nfts: [] } })).toBeNull();
    expect(pageLead({ page: "explore" }, explore({ image_cid: null }))).toBeNull();
    expect(pageLead({ page: "explore" }, null)).toBeNull();
  });

  it("cannot be broken out of by a name", () => {
    const name = '"><script>alert(1)</script>&';
    const lead = pageLead(
      { page: "explore" },
      explore({ name, collection: { address: "0xc", name, kind: "standard" } }),
    );
    expect(lead?.html).not.toContain("<script>");
    expect(lead?.html).toContain('alt="&quot;>&lt;script>alert(1)&lt;/script>&amp;"');
    expect(lead?.html).toContain(`/mira/${encodeURIComponent(name)}/7`);
  });
});

describe("the item page's first paint", () => {
  const media = (stills: ItemMedia["stills"], mime = "image/png"): ItemMedia => ({
    cid: "bafkreioriginal",
    mime,
    thumbnail: "bafkreithumb",
    preview: "bafkreipreview",
    stills,
    width: 2400,
    height: 1600,
  });
  const item = { page: "item", creator: "mira", collection: undefined, tokenId: "1" } as const;
  const paint = (lead: FirstPaint["lead"]) =>
    withFirstPaint(`<head><meta charset="UTF-8"></head><main>${LEAD_MARK}</main>`, {
      scripts: ["/assets/NftDetail.js"],
      styles: [],
      answers: {},
      lead,
    });

  it("draws the artwork with its phone copy in a srcset, and preloads the copy the srcset picks", () => {
    const stills = [
      { cid: "bafkreiphone", width: 640 },
      { cid: "bafkreipreview", width: 1200 },
    ];
    const html = paint(pageLead(item, { data: { nft: { name: "Tide", media: media(stills) } } }));
    const set = "/ipfs/bafkreiphone 640w, /ipfs/bafkreipreview 1200w";
    expect(html).toContain(
      `<img src="/ipfs/bafkreipreview" srcset="${set}" sizes="(min-width: 1024px) 544px, calc(100vw - 2rem)" alt="Tide"`,
    );
    expect(html).toContain(
      `<link rel="preload" as="image" href="/ipfs/bafkreipreview" imagesrcset="${set}" imagesizes="(min-width: 1024px) 544px, calc(100vw - 2rem)" fetchpriority="high">`,
    );
    // The page's code waits for the artwork's paint: named, not preloaded.
    expect(html).not.toContain("modulepreload");
    expect(html).toContain(
      '<script type="application/json" id="easel-page-code">["/assets/NftDetail.js"]</script>',
    );
  });

  it("shows older media, without a phone copy, with the preview alone; a video's poster is the phone copy", () => {
    const old = paint(pageLead(item, { data: { nft: { name: "Tide", media: media([]) } } }));
    expect(old).toContain('<img src="/ipfs/bafkreipreview" alt="Tide"');
    expect(old).not.toContain("srcset");
    const stills = [
      { cid: "bafkreiphone", width: 640 },
      { cid: "bafkreipreview", width: 1200 },
    ];
    const video = paint(
      pageLead(item, { data: { nft: { name: "Drift", media: media(stills, "video/mp4") } } }),
    );
    // The poster and a Play mark, as the app's player first draws: no source and no controls, so nothing
    // loads (and no player's loading spinner turns) before a person asks it to play.
    expect(video).toContain('<video poster="/ipfs/bafkreiphone" playsinline preload="none"');
    expect(video).not.toMatch(/<video[^>]*(\ssrc=|controls)/);
    expect(video).toContain('<link rel="preload" as="image" href="/ipfs/bafkreiphone" fetchpriority="high">');
  });
});

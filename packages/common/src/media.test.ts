import { afterEach, describe, expect, it } from "vitest";
import { itemPagePicture, itemPagePictureSet, mediaUrl, setMediaBase } from "./media.ts";

describe("media URLs", () => {
  afterEach(() => setMediaBase(null));

  it("loads gateway media from the site itself unless a media origin is set", () => {
    expect(mediaUrl("bafkcid")).toBe("/ipfs/bafkcid");
    expect(mediaUrl("/ipfs/bafkcid")).toBe("/ipfs/bafkcid");
    setMediaBase("https://media.example/");
    expect(mediaUrl("bafkcid")).toBe("https://media.example/ipfs/bafkcid");
    expect(mediaUrl("/ipfs/bafkcid")).toBe("https://media.example/ipfs/bafkcid");
    // Other paths and absolute URLs are not gateway media.
    expect(mediaUrl("/images/logo.svg")).toBe("/images/logo.svg");
    expect(mediaUrl("https://elsewhere.example/a.png")).toBe("https://elsewhere.example/a.png");
    expect(mediaUrl(null)).toBeNull();
  });

  it("takes the server's own media origin when given", () => {
    const media = { cid: "orig", mime: "image/png", thumbnail: "t", preview: "p", width: 1, height: 1 };
    expect(itemPagePicture(media, "https://media.example")).toBe("https://media.example/ipfs/p");
    expect(mediaUrl("orig", "")).toBe("/ipfs/orig");
  });

  it("gives the item page's picture a srcset of its copies when there are two, on the media origin", () => {
    const stills = [
      { cid: "phone", width: 640 },
      { cid: "p", width: 1200 },
    ];
    const image = { cid: "orig", mime: "image/png", thumbnail: "t", preview: "p", width: 2400, height: 1600 };
    expect(itemPagePictureSet({ ...image, stills }, "https://media.example")).toEqual({
      src: "https://media.example/ipfs/p",
      srcSet: "https://media.example/ipfs/phone 640w, https://media.example/ipfs/p 1200w",
      sizes: "(min-width: 1024px) 544px, calc(100vw - 2rem)",
    });
    // Older media (no copies listed) and a picture with one copy show the preview alone.
    expect(itemPagePictureSet(image)).toEqual({ src: "/ipfs/p" });
    expect(itemPagePictureSet({ ...image, stills: [] })).toEqual({ src: "/ipfs/p" });
    // A video's poster is one picture: the phone's copy, else the preview.
    const video = { ...image, mime: "video/mp4", width: null, height: null };
    expect(itemPagePictureSet({ ...video, stills })).toEqual({ src: "/ipfs/phone" });
    expect(itemPagePictureSet(video)).toEqual({ src: "/ipfs/p" });
  });
});

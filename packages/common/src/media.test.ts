import { afterEach, describe, expect, it } from "vitest";
import { itemPagePicture, mediaUrl, setMediaBase } from "./media.ts";

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
});

import type { ItemMedia as Media } from "@easel/common";
import { fireEvent, render, screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { ItemMedia } from "./ItemMedia.tsx";

const sprite: Media = {
  cid: "bafkreisprite",
  mime: "image/png",
  thumbnail: "bafkreithumb",
  preview: "bafkreipreview",
  width: 16,
  height: 16,
};

describe("the item page's artwork", () => {
  it("draws pixel art with crisp pixels, on the page and full screen", async () => {
    render(<ItemMedia media={sprite} name="Sprite" pixelated />);
    const page = screen.getByAltText("Sprite") as HTMLImageElement;
    expect(page.src).toContain("/ipfs/bafkreipreview");
    expect(page.style.imageRendering).toBe("pixelated");
    fireEvent.click(screen.getByRole("button", { name: "View full screen" }));
    const dialog = await screen.findByRole("dialog");
    expect((within(dialog).getByAltText("Sprite") as HTMLImageElement).style.imageRendering).toBe(
      "pixelated",
    );
  });

  it("leaves other artworks to smooth scaling", () => {
    render(<ItemMedia media={sprite} name="Harbour" />);
    expect((screen.getByAltText("Harbour") as HTMLImageElement).style.imageRendering).toBe("");
  });

  it("draws the preview's copies as a srcset, keeping the artwork's proportions, and the proven original alone", () => {
    const media: Media = {
      ...sprite,
      width: 2400,
      height: 1600,
      stills: [
        { cid: "bafkreiphone", width: 640 },
        { cid: "bafkreipreview", width: 1200 },
      ],
    };
    const { rerender } = render(<ItemMedia media={media} name="Harbour" />);
    const preview = screen.getByAltText("Harbour") as HTMLImageElement;
    expect(preview.getAttribute("srcset")).toBe("/ipfs/bafkreiphone 640w, /ipfs/bafkreipreview 1200w");
    expect(preview.getAttribute("sizes")).toBe("(min-width: 1024px) 544px, calc(100vw - 2rem)");
    expect(preview.style.aspectRatio).toBe("2400 / 1600");
    rerender(
      <ItemMedia
        media={media}
        name="Harbour"
        check={{
          status: "verified",
          tokenUri: "ipfs://bafkreimetadata",
          metadataCid: "bafkreimetadata",
          artworkCid: "bafkreisprite",
          url: "blob:proven",
        }}
      />,
    );
    const proven = screen.getByAltText("Harbour") as HTMLImageElement;
    expect(proven.getAttribute("src")).toBe("blob:proven");
    expect(proven.hasAttribute("srcset")).toBe(false);
    expect(proven.style.aspectRatio).toBe("2400 / 1600");
  });

  it("shows a video's poster and loads nothing until Play; played, it moves to the proven bytes where it was", () => {
    const clip: Media = { ...sprite, mime: "video/mp4", cid: "bafkreiclip" };
    const played: string[] = [];
    const play = vi.spyOn(HTMLMediaElement.prototype, "play").mockImplementation(function (
      this: HTMLMediaElement,
    ) {
      played.push(this.getAttribute("src") ?? "");
      return Promise.resolve();
    });
    const verified = {
      status: "verified",
      tokenUri: "ipfs://bafkreimetadata",
      metadataCid: "bafkreimetadata",
      artworkCid: "bafkreiclip",
      url: "blob:proven",
    } as const;
    try {
      const { container, rerender } = render(<ItemMedia media={clip} name="Drift" />);
      const video = container.querySelector("video") as HTMLVideoElement;
      expect(video.getAttribute("poster")).toBe("/ipfs/bafkreipreview");
      expect(video.hasAttribute("src")).toBe(false);
      expect(video.controls).toBe(false);
      // Proven before it is played: still nothing loads.
      rerender(<ItemMedia media={clip} name="Drift" check={verified} />);
      expect(video.hasAttribute("src")).toBe(false);
      rerender(<ItemMedia media={clip} name="Drift" />);

      fireEvent.click(screen.getByRole("button", { name: "Play Drift" }));
      expect(played).toEqual(["/ipfs/bafkreiclip"]);
      expect(video.controls).toBe(true);
      expect(screen.queryByRole("button", { name: "Play Drift" })).toBeNull();
      // The check ends while it plays: the same element takes the proven bytes.
      rerender(<ItemMedia media={clip} name="Drift" check={verified} />);
      expect(container.querySelector("video")).toBe(video);
      expect(video.getAttribute("src")).toBe("blob:proven");
    } finally {
      play.mockRestore();
    }
  });
});

import type { ItemMedia as Media } from "@easel/common";
import { fireEvent, render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
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
});

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
});

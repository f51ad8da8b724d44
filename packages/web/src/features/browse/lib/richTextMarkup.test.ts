import { type RichText, richTextPlain, richTextSchema } from "@easel/common";
import { describe, expect, it } from "vitest";
import { fromMarkup, toMarkup } from "./richTextMarkup.ts";

describe("description markup", () => {
  it("reads bold, italic and links into runs the server accepts", () => {
    const doc = fromMarkup("Light **over** the *harbour*, see [my site](https://ada.example).\nSecond line");
    expect(richTextSchema.safeParse(doc).success).toBe(true);
    expect(doc?.paragraphs[0]?.runs).toEqual([
      { text: "Light " },
      { text: "over", bold: true },
      { text: " the " },
      { text: "harbour", italic: true },
      { text: ", see " },
      { text: "my site", link: "https://ada.example" },
      { text: "." },
    ]);
    expect(richTextPlain(doc)).toBe("Light over the harbour, see my site.\nSecond line");
  });

  it("never makes a link of anything but http(s), and keeps escaped characters literal", () => {
    const doc = fromMarkup("[x](javascript:alert(1)) 2 \\* 3 = 6 \\[sic\\]");
    expect(doc?.paragraphs[0]?.runs.some((r) => r.link)).toBe(false);
    expect(richTextPlain(doc)).toBe("[x](javascript:alert(1)) 2 * 3 = 6 [sic]");
  });

  it("gives back the same document after a round trip, and null for nothing", () => {
    const doc: RichText = {
      type: "doc",
      paragraphs: [
        {
          runs: [
            { text: "a*b", bold: true, italic: true },
            { text: " [c]", link: "https://c.example" },
          ],
        },
        { runs: [] },
        { runs: [{ text: "back\\slash" }] },
      ],
    };
    expect(fromMarkup(toMarkup(doc))).toEqual(doc);
    expect(fromMarkup("  ")).toBeNull();
  });
});

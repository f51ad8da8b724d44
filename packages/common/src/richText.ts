/**
 * Collection descriptions as rich text: the shape, its limits and its plain text, without zod, so pages that
 * only show a description (home, collection cards) do not load the schemas. `richTextSchema` in `browse.ts`
 * checks the same shape.
 */

export const COLLECTION_DESCRIPTION_MAX = 1000;
/** The description expands with Show more / Show less past this many characters. */
export const DESCRIPTION_PREVIEW_CHARS = 170;

/**
 * A collection description as stored and sent: paragraphs of text runs, each optionally bold, italic or a
 * link (http(s) only). Nothing else exists in it, so it renders without any HTML from the author.
 */
export interface RichText {
  type: "doc";
  paragraphs: { runs: { text: string; bold?: boolean; italic?: boolean; link?: string }[] }[];
}

/** The plain text of a description (what its length is counted on and what search reads). */
export const richTextPlain = (doc: RichText | null | undefined): string =>
  doc ? doc.paragraphs.map((p) => p.runs.map((r) => r.text).join("")).join("\n") : "";

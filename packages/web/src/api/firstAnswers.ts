/**
 * The first API answers of a landing page, sent with its HTML (`#easel-answers`, `{ [path]: body }`, by the
 * server's web/firstPaint.ts), so the page paints without asking for them. Each is used once, by the first
 * read of exactly that path, and only while the page has just loaded: later reads ask the API.
 */
const FRESH_MS = 10_000;

let answers: Map<string, unknown> | null = null;

function pageAnswers(): Map<string, unknown> {
  if (answers) return answers;
  answers = new Map();
  const block = typeof document === "undefined" ? null : document.getElementById("easel-answers");
  try {
    const parsed: unknown = JSON.parse(block?.textContent || "{}");
    if (parsed && typeof parsed === "object") answers = new Map(Object.entries(parsed));
  } catch {
    // A broken block: every read asks the API.
  }
  return answers;
}

/** The page's answer to a GET of `path`, taken so no later read gets it; undefined when there is none. */
export function takeFirstAnswer(path: string): { body: unknown } | undefined {
  const page = pageAnswers();
  if (!page.has(path)) return undefined;
  const body = page.get(path);
  page.delete(path);
  return performance.now() < FRESH_MS ? { body } : undefined;
}

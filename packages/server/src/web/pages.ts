/**
 * The web app's pages the server knows by their path: their links preview in chat apps (sharePreview.ts) and
 * their HTML carries what they need first (firstPaint.ts). The app's router (packages/web/src/app/routes.tsx)
 * decides what a path shows; this reads the same paths the same way for the pages people land on.
 */
export type Page =
  | { page: "home" }
  | { page: "explore" }
  | { page: "collection"; name: string }
  | { page: "profile"; key: string }
  | { page: "item"; creator: string; collection: string | undefined; tokenId: string };

/** First segments of the app's routes of two or three segments: such a path is never an item's. */
const ROUTE_PREFIXES = new Set([
  "collection",
  "collections",
  "profile",
  "offer",
  "acceptOffer",
  "newsletter",
  "email",
]);
const TOKEN_ID = /^[1-9]\d{0,77}$/;

const decode = (segment: string) => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
};

/** The page a path (without its query) shows, or null for every other path. */
export function pageOf(path: string): Page | null {
  const parts = path.split("/").filter(Boolean).map(decode);
  if (parts.some((part) => part === null)) return null;
  const [first, second, third] = parts as string[];
  if (parts.length === 0) return { page: "home" };
  if (parts.length === 1) return first === "ExploreNFTs" ? { page: "explore" } : null;
  if (parts.length === 2 && first === "profile") return { page: "profile", key: second as string };
  if (parts.length === 2 && first === "collection") return { page: "collection", name: second as string };
  if (parts.length > 3 || ROUTE_PREFIXES.has(first as string)) return null;
  // Items: /{creator}/{tokenId} in the default collection, /{creator}/{collection}/{tokenId} elsewhere.
  const tokenId = (parts.length === 3 ? third : second) as string;
  if (!TOKEN_ID.test(tokenId)) return null;
  return {
    page: "item",
    creator: first as string,
    collection: parts.length === 3 ? second : undefined,
    tokenId,
  };
}

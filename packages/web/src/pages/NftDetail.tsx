// The item page's own code is fetched once this module runs, not preloaded with the page's HTML (the server
// preloads a page module's static imports, packages/server/src/web/firstPaint.ts): on a slow link those
// scripts shared the connections with the artwork the HTML already draws, and held its paint back.
export const Component = (await import("../features/items/components/ItemPage.tsx")).ItemPage;

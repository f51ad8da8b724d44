export * from "./accounts.ts";
export * from "./api.ts";
export * from "./browse.ts";
export * from "./constants.ts";
export * from "./format.ts";
export * from "./items.ts";
export * from "./trading.ts";

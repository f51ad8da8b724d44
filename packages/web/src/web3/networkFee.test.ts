import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { LAZY_MINT_GAS, lazyMintGas } from "./networkFee.ts";

/** The contracts' measured gas (`npm run bench:gas`), which the lazy mint's figure is taken from. */
const report = JSON.parse(
  readFileSync(resolve(import.meta.dirname, "../../../contracts/gas-report.json"), "utf8"),
) as Record<string, number>;

describe("lazyMintGas", () => {
  it("is the measured lazy mint, and what each further collaborator adds", () => {
    expect(LAZY_MINT_GAS.base).toBe(BigInt(report.lazyMint as number));
    const perCollaborator = Math.round(((report.mintSplit5 as number) - (report.mint as number)) / 4);
    expect(Number(LAZY_MINT_GAS.perCollaborator)).toBeCloseTo(perCollaborator, -3);
    expect(lazyMintGas(1)).toBe(LAZY_MINT_GAS.base);
    expect(lazyMintGas(3)).toBe(LAZY_MINT_GAS.base + 2n * LAZY_MINT_GAS.perCollaborator);
  });
});

import { parseEther } from "viem";
import { describe, expect, it } from "vitest";
import { weiToUsd } from "./ethPrice.ts";

describe("USD values", () => {
  it("converts wei to dollars in whole numbers, rounding down to the cent", () => {
    expect(weiToUsd(parseEther("1"), "3000")).toBe("$3,000.00");
    expect(weiToUsd(parseEther("0.05"), "3120.12345678")).toBe("$156.00");
    expect(weiToUsd(1n, "3000")).toBe("$0.00");
    expect(weiToUsd(parseEther("12345.678"), "2999.99")).toBe("$37,036,910.54");
  });
});

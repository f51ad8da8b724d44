import { parseEther } from "viem";
import { describe, expect, it } from "vitest";
import { usdCents, weiToUsd } from "./ethPrice.ts";

describe("USD values", () => {
  it("converts wei to dollars in whole numbers, rounding down to the cent", () => {
    expect(weiToUsd(parseEther("1"), "3000")).toBe("$3,000.00");
    expect(weiToUsd(parseEther("0.05"), "3120.12345678")).toBe("$156.00");
    expect(weiToUsd(1n, "3000")).toBe("$0.00");
    expect(weiToUsd(parseEther("12345.678"), "2999.99")).toBe("$37,036,910.54");
  });

  it("writes cents as Intl's en-US dollars do, and exactly past a double's precision", () => {
    const intl = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
    const samples = [0n, 1n, 9n, 10n, 99n, 100n, 101n, 99_999n, 100_000n, 123_456_789n, 100_000_000_000n];
    for (const cents of [...samples, ...samples.map((n) => -n)])
      expect(usdCents(cents)).toBe(intl.format(Number(cents) / 100));
    expect(usdCents(-5n)).toBe("-$0.05");
    expect(usdCents(123_456_789_012_345_678_901n)).toBe("$1,234,567,890,123,456,789.01");
  });
});

import { describe, expect, it } from "vitest";
import { cpuSlowdown } from "./cpuSlowdown.ts";

describe("the mobile CPU slowdown from benchmarkIndex (Lighthouse's calculator)", () => {
  it("gives the calculator's anchor points", () => {
    expect(cpuSlowdown(150).multiplier).toBe(1);
    expect(cpuSlowdown(800).multiplier).toBe(2);
    expect(cpuSlowdown(1300).multiplier).toBe(3);
    expect(cpuSlowdown(1533).multiplier).toBe(4);
    expect(cpuSlowdown(1766).multiplier).toBe(5);
    expect(cpuSlowdown(2000).multiplier).toBe(6);
  });

  it("is continuous where its pieces meet", () => {
    for (const edge of [150, 800, 1300]) {
      expect(Math.abs(cpuSlowdown(edge).multiplier - cpuSlowdown(edge - 0.001).multiplier)).toBeLessThan(
        0.11,
      );
    }
  });

  it("keeps the fit above the docs' high-end desktop bracket instead of capping it", () => {
    expect(cpuSlowdown(3900).multiplier).toBe(14.2);
    expect(cpuSlowdown(3900).range).toEqual([8.6, 19.7]);
    expect(cpuSlowdown(2473).multiplier).toBe(8);
  });

  it("gives the calculator's confidence ranges", () => {
    expect(cpuSlowdown(1300).range).toEqual([2.3, 3.8]);
    expect(cpuSlowdown(1060).range).toEqual([1.8, 3.3]);
    expect(cpuSlowdown(475).range).toEqual([1.3, 1.8]);
  });

  it("does not slow a host slower than the phone, and says so", () => {
    expect(cpuSlowdown(149)).toEqual({ multiplier: 1, range: [1, 1], tooSlow: true });
    expect(cpuSlowdown(0).tooSlow).toBe(true);
    expect(cpuSlowdown(150).tooSlow).toBe(false);
  });
});

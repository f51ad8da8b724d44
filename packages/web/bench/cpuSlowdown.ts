/**
 * The mobile CPU slowdown for a host of this Lighthouse `benchmarkIndex`, as Lighthouse's docs/throttling.md
 * ("Calibrating the CPU slowdown") says to set it: by the Lighthouse CPU slowdown calculator it links to
 * (lighthouse-cpu-throttling-calculator.vercel.app), whose piecewise-linear fit maps a host's index to the
 * multiplier that brings it to the mid-tier phone of Lighthouse's default 4× (1300 → 3×, 2000 → 6×).
 *
 * Not capped at the docs' table's 10× (the top of the high-end desktop → mid-tier mobile range): that table
 * stops at the high-end desktop bracket (1500–2000), while the calculator continues the same fit above it. A
 * faster host must be slowed more to stand for the same phone; a cap would let a quiet hour on this shared
 * machine (index ≈ 3,900, 14×) emulate a faster phone than a busy one, which is what the calibration is for.
 * Below 150 the calculator says the host is too slow to emulate the phone at all: 1× (no slowdown), flagged.
 */
export function cpuSlowdown(benchmarkIndex: number): {
  multiplier: number;
  /** The calculator's confidence range around the multiplier. */
  range: [number, number];
  /** The host is slower than the phone to emulate (index < 150): the figures are the host's own. */
  tooSlow: boolean;
} {
  const fit = (multiplier: number, spread: number) => ({
    multiplier: round(multiplier),
    range: [round(multiplier - spread / 2), round(multiplier + spread / 2)] as [number, number],
    tooSlow: false,
  });
  if (benchmarkIndex >= 1300) {
    const excess = (benchmarkIndex - 1300) / 233;
    const multiplier = 3 + excess;
    return fit(multiplier, Math.max(excess, 1.5, multiplier * 0.3));
  }
  if (benchmarkIndex >= 800) return fit(2 + (benchmarkIndex - 800) / 500, 1.5);
  if (benchmarkIndex >= 150) return fit(1 + (benchmarkIndex - 150) / 650, 0.5);
  return { multiplier: 1, range: [1, 1], tooSlow: true };
}

const round = (n: number) => Math.round(n * 10) / 10;

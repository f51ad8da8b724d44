/**
 * The machine's speed at the time of a run, for the reports: these machines are shared and their speed moves
 * 2–3× from hour to hour, so an absolute figure only means something beside this one (docs/benchmarks.md).
 */

/** Additions in the loop: about a second on the machine the first reports were made on. */
export const LOOP_ADDITIONS = 100_000_000;

/** Milliseconds a plain JavaScript loop of LOOP_ADDITIONS additions takes now: more is a slower machine. */
export function additionLoopMs(): number {
  const started = performance.now();
  let sum = 0;
  for (let i = 0; i < LOOP_ADDITIONS; i++) sum += i;
  const ms = performance.now() - started;
  // The sum is used, so the loop cannot be left out.
  if (sum !== (LOOP_ADDITIONS * (LOOP_ADDITIONS - 1)) / 2) throw new Error("the addition loop miscounted");
  return Math.round(ms);
}

/** The loop's time before and after the measurements: a wide gap says the machine's speed moved during them. */
export type MachineSpeed = { additionLoopMs: { before: number; after: number }; additions: number };

export function machineSpeed(before: number): MachineSpeed {
  return { additionLoopMs: { before, after: additionLoopMs() }, additions: LOOP_ADDITIONS };
}

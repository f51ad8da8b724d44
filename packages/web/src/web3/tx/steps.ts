import type { Abi } from "viem";

/**
 * One step of a wallet flow. Every flow is a list of these, run by `useTransactionFlow` and drawn by
 * `Stepper`: a contract write (simulated first, so a revert shows before the wallet asks; then sent, its
 * receipt awaited, and the indexer waited for), or a call to Easel's API.
 */
export type TransactionStep =
  | {
      kind: "write";
      label: string;
      /** The call: `{ ...market, functionName, args, value? }`. */
      call: {
        address: `0x${string}`;
        abi: Abi | readonly unknown[];
        chainId: number;
        functionName: string;
        args?: readonly unknown[];
        value?: bigint;
      };
    }
  | { kind: "api"; label: string; run: () => Promise<unknown> };

export type StepState = "waiting" | "running" | "done" | "failed";

/** What the stepper shows for a step. */
export type StepStatus = { id: string; label: string; state: StepState; hash?: `0x${string}` };

/** A contract write step. */
export function writeStep(label: string, call: Extract<TransactionStep, { kind: "write" }>["call"]) {
  return { kind: "write", label, call } as const satisfies TransactionStep;
}

/** An Easel API step. */
export function apiStep(label: string, run: () => Promise<unknown>) {
  return { kind: "api", label, run } as const satisfies TransactionStep;
}

import type { Abi, TransactionReceipt } from "viem";

/**
 * One step of a wallet flow. Every flow is a list of these, run by `useTransactionFlow` and drawn by
 * `Stepper`: a contract write (simulated first, so a revert shows before the wallet asks; then sent, its
 * receipt awaited, and the indexer waited for), a signature in the wallet without a transaction (a signed
 * listing), or a call to Easel's API.
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
      /** Reads what the flow needs from the mined transaction (a created address, a new id). */
      onReceipt?: (receipt: TransactionReceipt) => void;
    }
  | { kind: "sign"; label: string; run: () => Promise<unknown> }
  | { kind: "api"; label: string; run: () => Promise<unknown> };

export type StepState = "waiting" | "running" | "done" | "failed";

/** What the stepper shows for a step. */
export type StepStatus = { id: string; label: string; state: StepState; hash?: `0x${string}` };

type WriteStep = Extract<TransactionStep, { kind: "write" }>;

/** A contract write step. */
export function writeStep(label: string, call: WriteStep["call"], onReceipt?: WriteStep["onReceipt"]) {
  return { kind: "write", label, call, onReceipt } as const satisfies TransactionStep;
}

/** A wallet signature that sends no transaction (costs no gas), e.g. an EIP-712 order. */
export function signStep(label: string, run: () => Promise<unknown>) {
  return { kind: "sign", label, run } as const satisfies TransactionStep;
}

/** An Easel API step. */
export function apiStep(label: string, run: () => Promise<unknown>) {
  return { kind: "api", label, run } as const satisfies TransactionStep;
}

/**
 * One contract write drawn as two rows: confirming in the wallet (done once the transaction is sent) and
 * waiting for it to be mined and indexed (the spec's 'Confirmation...' then 'Minting...').
 */
export function sentThenMined(write: StepStatus | undefined, sending: string, mining: string): StepStatus[] {
  const sent = !!write?.hash || write?.state === "done";
  return [
    {
      id: `${write?.id ?? "write"}:send`,
      label: sending,
      state: sent ? "done" : write?.state === "failed" ? "failed" : (write?.state ?? "waiting"),
    },
    {
      id: `${write?.id ?? "write"}:mine`,
      label: mining,
      state: !sent
        ? "waiting"
        : write?.state === "done"
          ? "done"
          : write?.state === "failed"
            ? "failed"
            : "running",
      ...(write?.hash ? { hash: write.hash } : {}),
    },
  ];
}

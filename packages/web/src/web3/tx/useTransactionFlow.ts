import { useState } from "react";
import { toast } from "sonner";
import { useConfig } from "wagmi";
import { simulateContract, waitForTransactionReceipt, writeContract } from "wagmi/actions";
import { noteOwnWrite, untilOwnWritesIndexed } from "../../api/ownWrites.ts";
import { transactionErrorMessage } from "../errors.ts";
import type { StepStatus, TransactionStep } from "./steps.ts";

/**
 * Runs wallet flows one step at a time: each write is simulated (a revert is explained before the wallet
 * opens), sent and confirmed by its receipt; each signature and API step is awaited. A step after a write
 * starts once the indexer has that write (the API may build on it); the last step is done as soon as its
 * receipt is in, and later reads wait for the indexer on their own. A failure marks its step, shows the broken rule in words and
 * stops the flow.
 *
 * @example const flow = useTransactionFlow(); await flow.run([writeStep("Block", { ...market, ... })]);
 */
export function useTransactionFlow() {
  const wagmiConfig = useConfig();
  const [steps, setSteps] = useState<StepStatus[] | null>(null);
  const [running, setRunning] = useState(false);

  /** Runs the steps; true when all succeeded. */
  async function run(flow: readonly TransactionStep[]): Promise<boolean> {
    const status: StepStatus[] = flow.map((step, index) => ({
      id: `${index}:${step.label}`,
      label: step.label,
      state: "waiting",
    }));
    const update = (index: number, patch: Partial<StepStatus>) => {
      status[index] = { ...(status[index] as StepStatus), ...patch };
      setSteps([...status]);
    };
    setSteps([...status]);
    setRunning(true);
    try {
      for (const [index, step] of flow.entries()) {
        update(index, { state: "running" });
        try {
          if (index > 0) await untilOwnWritesIndexed();
          if (step.kind === "api" || step.kind === "sign") {
            await step.run();
          } else {
            const { request } = await simulateContract(wagmiConfig, step.call as never);
            const hash = await writeContract(wagmiConfig, request as never);
            update(index, { hash });
            const receipt = await waitForTransactionReceipt(wagmiConfig, {
              hash,
              chainId: step.call.chainId,
            });
            if (receipt.status !== "success") throw new Error("The transaction failed on chain.");
            step.onReceipt?.(receipt);
            // Done at once: the chain has it. Reads wait for the indexer to catch up (api/ownWrites.ts).
            noteOwnWrite(receipt.blockNumber);
          }
          update(index, { state: "done" });
        } catch (error) {
          update(index, { state: "failed" });
          toast.error(transactionErrorMessage(error));
          return false;
        }
      }
      return true;
    } finally {
      setRunning(false);
    }
  }

  return { steps, running, run, reset: () => setSteps(null) };
}

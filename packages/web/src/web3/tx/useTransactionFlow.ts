import type { Health } from "@easel/common";
import { useState } from "react";
import { toast } from "sonner";
import { useConfig } from "wagmi";
import { simulateContract, waitForTransactionReceipt, writeContract } from "wagmi/actions";
import { apiFetch } from "../../api/client.ts";
import { transactionErrorMessage } from "../errors.ts";
import type { StepStatus, TransactionStep } from "./steps.ts";

/** How long a step waits for the indexer to reach its block before moving on anyway. */
const INDEXED_TIMEOUT_MS = 30_000;
const INDEXED_POLL_MS = 500;

/** Resolves once Easel's indexer has processed `block` (or after a timeout: the chain already has it). */
async function waitForIndexed(block: bigint): Promise<void> {
  const deadline = Date.now() + INDEXED_TIMEOUT_MS;
  while (Date.now() < deadline) {
    const health = await apiFetch<Health>("/api/health").catch((error: unknown) => {
      // /api/health answers 503 with the same body when the stack is degraded.
      const body = (error as { body?: Health }).body;
      return body ?? null;
    });
    if (health?.indexer && BigInt(health.indexer.indexedBlock) >= block) return;
    await new Promise((resolve) => setTimeout(resolve, INDEXED_POLL_MS));
  }
}

/**
 * Runs wallet flows one step at a time: each write is simulated (a revert is explained before the wallet
 * opens), sent, confirmed by its receipt and waited for until the indexer has it; each API step is awaited.
 * A failure marks its step, shows the broken rule in words and stops the flow.
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
          if (step.kind === "api") {
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
            await waitForIndexed(receipt.blockNumber);
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

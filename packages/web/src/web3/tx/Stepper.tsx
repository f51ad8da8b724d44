import { shortAddress } from "@easel/common";
import { useAppConfig } from "../../api/appConfig.tsx";
import { Spinner } from "../../ui/Spinner.tsx";
import type { StepStatus } from "./steps.ts";

/** The progress of a wallet flow: one line per step with its state, and its transaction when sent. */
export function Stepper({ steps, label }: { steps: readonly StepStatus[]; label: string }) {
  const { explorerUrl } = useAppConfig();
  return (
    <ol className="mt-4 flex flex-col gap-2 text-sm" aria-label={label}>
      {steps.map((step, index) => (
        <li key={step.id} className="flex flex-wrap items-center gap-2">
          <span
            className={`flex size-6 items-center justify-center rounded-full text-xs font-bold ${
              step.state === "done"
                ? "bg-green-600 text-white"
                : step.state === "failed"
                  ? "bg-red-600 text-white"
                  : step.state === "running"
                    ? "bg-accent-600 text-white"
                    : "bg-neutral-200 dark:bg-neutral-800"
            }`}
          >
            {step.state === "running" ? <Spinner className="size-3" /> : index + 1}
          </span>
          <span>
            {step.label}
            <span className="sr-only"> ({step.state})</span>
          </span>
          {step.hash ? <ExplorerLink hash={step.hash} explorerUrl={explorerUrl} /> : null}
        </li>
      ))}
    </ol>
  );
}

/** A transaction hash, linked to the block explorer when the chain has one. */
export function ExplorerLink({ hash, explorerUrl }: { hash: string; explorerUrl: string | null }) {
  return explorerUrl ? (
    <a
      href={`${explorerUrl}/tx/${hash}`}
      target="_blank"
      rel="noopener noreferrer"
      className="font-mono text-xs underline"
    >
      {shortAddress(hash)}
    </a>
  ) : (
    <span className="font-mono text-xs break-all text-neutral-500">{hash}</span>
  );
}

import { Link } from "react-router";
import { Button } from "../../../ui/Button.tsx";
import { Modal } from "../../../ui/Modal.tsx";
import { Stepper } from "../../../web3/tx/Stepper.tsx";
import type { StepStatus } from "../../../web3/tx/steps.ts";

export const MINT_STEPS = {
  upload: "Uploading your artwork",
  confirm: "Waiting for confirmation...",
  minting: "Your NFT is being minted...",
  minted: "Your NFT has been Minted!",
  creating: "Your NFT is being created...",
  created: "Congratulations! Your NFT has been uploaded and ready to be minted",
} as const;

/** Where a mint stands, for the dialog. */
export type MintProgress = {
  lazy: boolean;
  /** Upload percent; 100 once the server has stored the artwork. */
  percent: number;
  uploaded: boolean;
  /** The wallet step of a standard mint (from the transaction runner). */
  write: StepStatus | null;
  /** The item page once everything is done. */
  path: string | null;
};

/**
 * The mint dialog: the upload with its percent, then (standard) the wallet's confirmation and the mint, or
 * (lazy) the item's creation. Escape never closes it, nothing does while it runs, and closing it after
 * success resets the form (the page does that in `onClose`).
 */
export function MintDialog({ progress, onClose }: { progress: MintProgress | null; onClose: () => void }) {
  // A failure returns to the form (the page clears `progress`), so only success ends a run here.
  const running = !!progress && !progress.path;
  return (
    <Modal
      open={!!progress}
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={progress?.lazy ? "Create a lazy NFT" : "Mint your NFT"}
      locked={running}
      escapeCloses={false}
    >
      {progress ? (
        <div className="flex flex-col gap-4" role="status" aria-live="polite">
          <Stepper steps={mintSteps(progress)} label="Minting your NFT" />
          {progress.path ? (
            <div className="flex flex-wrap gap-2">
              <Link
                to={progress.path}
                className="font-semibold text-accent-700 underline dark:text-accent-300"
              >
                {progress.lazy ? "Visit Your NFT" : "View your NFT"}
              </Link>
            </div>
          ) : null}
          {progress.path ? <Button onClick={onClose}>Done</Button> : null}
        </div>
      ) : null}
    </Modal>
  );
}

function mintSteps(p: MintProgress): StepStatus[] {
  const upload: StepStatus = {
    id: "upload",
    label: p.uploaded ? `${MINT_STEPS.upload}: done` : `${MINT_STEPS.upload}: ${p.percent}%`,
    state: p.uploaded ? "done" : "running",
  };
  const done = !!p.path;
  if (p.lazy) {
    return [
      upload,
      {
        id: "creating",
        label: MINT_STEPS.creating,
        state: done ? "done" : p.uploaded ? "running" : "waiting",
      },
      { id: "created", label: MINT_STEPS.created, state: done ? "done" : "waiting" },
    ];
  }
  const write = p.write;
  const sent = !!write?.hash || write?.state === "done";
  return [
    upload,
    {
      id: "confirm",
      label: MINT_STEPS.confirm,
      state: sent ? "done" : write?.state === "failed" ? "failed" : write ? "running" : "waiting",
    },
    {
      id: "minting",
      label: MINT_STEPS.minting,
      state: done ? "done" : !sent ? "waiting" : write?.state === "failed" ? "failed" : "running",
      ...(write?.hash ? { hash: write.hash } : {}),
    },
    { id: "minted", label: MINT_STEPS.minted, state: done ? "done" : "waiting" },
  ];
}

import { MAX_SWEEP } from "@easel/common";
import { useId, useState } from "react";
import { errorMessage } from "../../../api/client.ts";
import { useSession } from "../../../auth/session.ts";
import { ethText, parseEthAmount } from "../../../lib/eth.ts";
import { useDebounced } from "../../../lib/useDebounced.ts";
import { Button } from "../../../ui/Button.tsx";
import { Loading } from "../../../ui/Loading.tsx";
import { Modal } from "../../../ui/Modal.tsx";
import { UsdValue } from "../../../ui/UsdValue.tsx";
import { useWalletDialog } from "../../../wallet/walletDialogState.tsx";
import { useSweep } from "../api/cart.ts";
import { Checkout, QuoteLine } from "./Checkout.tsx";

export const SWEEP_TEXT = {
  open: "Sweep",
  title: (n: number) => `Buy the ${n} cheapest`,
  count: "How many works",
  slider: "How many works (slider)",
  cap: "Highest price per work (ETH, optional)",
  capInvalid: "Enter a price in ETH, e.g. 0.5",
  none: "No work of this collection is for sale at a fixed price at or below your cap (your own works are left out).",
  fewer: (found: number, asked: number) =>
    `Only ${found} of the ${asked} asked are for sale at or below your cap.`,
  total: "Total",
  checkout: (n: number) => `Check out ${n} ${n === 1 ? "work" : "works"}`,
  connect: "Connect Wallet to sweep",
} as const;

/**
 * "Sweep" on a collection page: the N (1 to 20) cheapest works for sale at a fixed price, at or below a price cap,
 * quoted by the server (your own left out) and shown before anything is bought; then the cart's checkout.
 */
export function SweepButton({ collection }: { collection: string }) {
  const { session } = useSession();
  const { openWalletDialog } = useWalletDialog();
  const [open, setOpen] = useState(false);
  const me = session?.address.toLowerCase() ?? null;
  return (
    <>
      <Button variant="secondary" onClick={() => (me ? setOpen(true) : openWalletDialog())}>
        {SWEEP_TEXT.open}
      </Button>
      {me ? <SweepDialog open={open} onOpenChange={setOpen} collection={collection} buyer={me} /> : null}
    </>
  );
}

function SweepDialog({
  open,
  onOpenChange,
  collection,
  buyer,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  collection: string;
  buyer: string;
}) {
  const countId = useId();
  const capId = useId();
  const capErrorId = useId();
  const [count, setCount] = useState(5);
  const [capText, setCapText] = useState("");
  const [checkingOut, setCheckingOut] = useState(false);
  const [running, setRunning] = useState(false);
  const cap = capText.trim() === "" ? null : parseEthAmount(capText.trim());
  const capInvalid = capText.trim() !== "" && (cap === null || cap <= 0n);
  // The quote is asked once the number and the cap stand still.
  const [settledCount, settledCap] = useDebounced(`${count}|${cap ?? ""}`, 300).split("|");
  const settled = { count: Number(settledCount), cap: settledCap ? settledCap : null };
  const sweep = useSweep(buyer, collection, settled.count, settled.cap, open && !capInvalid && !checkingOut);
  const lines = sweep.data?.lines ?? [];
  return (
    <Modal
      open={open}
      onOpenChange={(next) => {
        onOpenChange(next);
        if (!next) setCheckingOut(false);
      }}
      title={SWEEP_TEXT.title(count)}
      className="max-w-lg"
      locked={running}
    >
      {checkingOut ? (
        <Checkout
          buyer={buyer}
          items={lines.map((l) => ({ collection: l.collection, tokenId: l.tokenId }))}
          onBack={() => setCheckingOut(false)}
          onRunningChange={setRunning}
        />
      ) : (
        <div className="flex min-w-0 flex-col gap-4">
          <div className="flex flex-col gap-2">
            <label htmlFor={countId} className="text-sm font-medium">
              {SWEEP_TEXT.count}
            </label>
            <div className="flex items-center gap-3">
              <input
                type="range"
                min={1}
                max={MAX_SWEEP}
                value={count}
                aria-label={SWEEP_TEXT.slider}
                onChange={(e) => setCount(Number(e.target.value))}
                className="min-w-0 flex-1 accent-accent-600"
              />
              <input
                id={countId}
                type="number"
                inputMode="numeric"
                min={1}
                max={MAX_SWEEP}
                value={count}
                onChange={(e) => {
                  const n = Math.round(Number(e.target.value));
                  if (Number.isFinite(n)) setCount(Math.min(MAX_SWEEP, Math.max(1, n)));
                }}
                className="w-20 rounded-lg border border-neutral-300 px-2 py-1.5 tabular-nums dark:border-neutral-700 dark:bg-neutral-950"
              />
            </div>
          </div>
          <div className="flex flex-col gap-1">
            <label htmlFor={capId} className="text-sm font-medium">
              {SWEEP_TEXT.cap}
            </label>
            <input
              id={capId}
              inputMode="decimal"
              value={capText}
              placeholder="No cap"
              aria-invalid={capInvalid || undefined}
              aria-describedby={capInvalid ? capErrorId : undefined}
              onChange={(e) => setCapText(e.target.value)}
              className="rounded-lg border border-neutral-300 px-3 py-1.5 tabular-nums dark:border-neutral-700 dark:bg-neutral-950"
            />
            {capInvalid ? (
              <p id={capErrorId} className="text-sm text-red-700 dark:text-red-400">
                {SWEEP_TEXT.capInvalid}
              </p>
            ) : null}
          </div>
          {sweep.isError ? (
            <p role="alert" className="text-sm text-red-700 dark:text-red-400">
              {errorMessage(sweep.error)}
            </p>
          ) : sweep.isPending && sweep.fetchStatus !== "idle" ? (
            <Loading label="Finding the cheapest works" />
          ) : lines.length === 0 ? (
            <p className="text-sm text-neutral-600 dark:text-neutral-400">{SWEEP_TEXT.none}</p>
          ) : (
            <>
              {lines.length < settled.count ? (
                <p className="text-sm">{SWEEP_TEXT.fewer(lines.length, settled.count)}</p>
              ) : null}
              <ul
                className={`flex flex-col gap-2 ${sweep.isPlaceholderData ? "opacity-60" : ""}`}
                aria-label="Works the sweep buys"
                aria-busy={sweep.isFetching || undefined}
              >
                {lines.map((line) => (
                  <QuoteLine key={`${line.collection}:${line.tokenId}`} line={line} />
                ))}
              </ul>
              <div className="flex flex-wrap items-baseline justify-between gap-2">
                <span className="font-semibold">{SWEEP_TEXT.total}</span>
                <span className="flex flex-wrap items-baseline gap-2">
                  <span className="font-semibold tabular-nums" data-testid="sweep-total">
                    {ethText(sweep.data?.totalWei ?? "0")}
                  </span>
                  <UsdValue wei={sweep.data?.totalWei ?? "0"} className="text-sm" />
                </span>
              </div>
              <Button
                onClick={() => setCheckingOut(true)}
                disabled={sweep.isPlaceholderData || sweep.isFetching}
              >
                {SWEEP_TEXT.checkout(lines.length)}
              </Button>
            </>
          )}
        </div>
      )}
    </Modal>
  );
}

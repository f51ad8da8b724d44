import { useEffect, useId, useRef } from "react";
import { Button } from "./Button.tsx";

/**
 * The spec's question before taking an item off the market, and its answers (creation-and-trading, C38): the
 * fixed price's Unlist and a signed listing's cancel on chain ask it alike.
 */
export const CONFIRM_TEXT = {
  unlist: "Are you going to unlist your item?",
  yes: "Yes",
  keep: "Keep it in market",
} as const;

/**
 * The question asked in place of a button before an action that cannot be undone (unlist, cancel an auction,
 * cancel a signed listing on chain): the question, 'Yes' and a way to keep things as they are ('Keep it in
 * market' unless said otherwise). It takes the button's place, so the page does not jump to a dialog; focus
 * moves to the safe answer, and Escape keeps things as they are.
 *
 * @example
 * asking ? (
 *   <ConfirmQuestion label="Cancel Auction" question="Are you going to cancel your auction?"
 *     onYes={cancel} onNo={() => setAsking(false)} />
 * ) : <Button onClick={() => setAsking(true)}>Cancel Auction</Button>
 */
export function ConfirmQuestion({
  label,
  question,
  onYes,
  onNo,
  yes = CONFIRM_TEXT.yes,
  no = CONFIRM_TEXT.keep,
  busy = false,
}: {
  /** The accessible name of the question: the action it is about ('Cancel Auction'). */
  label: string;
  question: string;
  onYes: () => void;
  onNo: () => void;
  /** The answer that goes ahead. */
  yes?: string;
  /** The answer that keeps things as they are. */
  no?: string;
  /** The action runs: Yes shows a spinner and neither answer can be given twice. */
  busy?: boolean;
}) {
  const id = useId();
  const keep = useRef<HTMLButtonElement>(null);
  useEffect(() => keep.current?.focus(), []);
  return (
    <div
      className="flex flex-col gap-3"
      role="alertdialog"
      aria-label={label}
      aria-describedby={id}
      onKeyDown={(event) => {
        if (event.key === "Escape" && !busy) {
          event.stopPropagation();
          onNo();
        }
      }}
    >
      <p id={id} className="font-semibold">
        {question}
      </p>
      <div className="flex flex-wrap gap-2">
        <Button variant="danger" onClick={onYes} loading={busy} disabled={busy}>
          {yes}
        </Button>
        <Button ref={keep} variant="secondary" onClick={onNo} disabled={busy}>
          {no}
        </Button>
      </div>
    </div>
  );
}

import {
  type Collaborator,
  MINT_MESSAGES,
  mediaUrl,
  SEARCH_DEBOUNCE_MS,
  SPLIT_MAX_PEOPLE,
  SPLIT_STEP,
  shareError,
  shortAddress,
  splitError,
} from "@easel/common";
import { useId, useState } from "react";
import { useDebounced } from "../../../lib/useDebounced.ts";
import { Avatar } from "../../../ui/Avatar.tsx";
import { Button } from "../../../ui/Button.tsx";
import { inputClass } from "../../../ui/Field.tsx";
import { Modal } from "../../../ui/Modal.tsx";
import { useUserSearch } from "../api/items.ts";

/** One recipient of the split as the popup shows it. */
export type SplitPerson = Collaborator & { username: string | null; avatar: string | null };

/** The total of the shares. */
export const splitTotal = (people: readonly Collaborator[]) => people.reduce((sum, p) => sum + p.share, 0);

/**
 * 100% shared as evenly as steps of SPLIT_STEP allow among `count` people, the larger shares first (the creator
 * first): 2 → 50/50, 3 → 35/35/30, 4 → 25 each.
 */
export function evenShares(count: number): number[] {
  const steps = 100 / SPLIT_STEP;
  const base = Math.floor(steps / count);
  const extra = steps % count;
  return Array.from({ length: count }, (_, i) => (base + (i < extra ? 1 : 0)) * SPLIT_STEP);
}

/** The same people with the shares evened out (as each one is added or removed). */
const evenly = <T extends Collaborator>(people: T[]): T[] => {
  const shares = evenShares(people.length);
  return people.map((person, i) => ({ ...person, share: shares[i] ?? 0 }));
};

/**
 * The split popup: the creator first (always, and cannot be removed), up to four people found by address or
 * username, each with a share in steps of 5. Adding or removing someone shares 100% evenly again, each share
 * then editable; 'Split' is enabled only when the shares add up to exactly 100.
 */
export function SplitDialog({
  open,
  creator,
  initial,
  onCancel,
  onSave,
}: {
  open: boolean;
  creator: { address: string; username: string | null; avatar: string | null };
  initial: readonly SplitPerson[];
  onCancel: () => void;
  onSave: (people: SplitPerson[]) => void;
}) {
  return (
    <Modal
      open={open}
      onOpenChange={(next) => (next ? undefined : onCancel())}
      title="Split earnings"
      description="Share this item's earnings with up to four collaborators. Shares go in steps of 5% and must add up to 100%."
      className="max-w-lg"
    >
      {open ? <SplitEditor creator={creator} initial={initial} onCancel={onCancel} onSave={onSave} /> : null}
    </Modal>
  );
}

function SplitEditor({
  creator,
  initial,
  onCancel,
  onSave,
}: {
  creator: { address: string; username: string | null; avatar: string | null };
  initial: readonly SplitPerson[];
  onCancel: () => void;
  onSave: (people: SplitPerson[]) => void;
}) {
  const me = creator.address.toLowerCase();
  const [people, setPeople] = useState<SplitPerson[]>(() =>
    initial.length > 0
      ? [...initial]
      : [{ address: me, share: 100, username: creator.username, avatar: creator.avatar }],
  );
  const [message, setMessage] = useState<string | null>(null);
  const [text, setText] = useState("");
  const search = useUserSearch(useDebounced(text, SEARCH_DEBOUNCE_MS));
  const searchId = useId();
  const total = splitTotal(people);
  const problem = splitError(me, people);

  const add = (user: { address: string; username: string | null; avatar: string | null }) => {
    const address = user.address.toLowerCase();
    if (people.some((p) => p.address === address)) return setMessage(MINT_MESSAGES.duplicate);
    if (people.length >= SPLIT_MAX_PEOPLE) return setMessage(MINT_MESSAGES.peopleMax);
    setMessage(null);
    // Nobody has to lower their own share first: the newcomer gets an even share, everyone else too.
    setPeople(evenly([...people, { address, share: 0, username: user.username, avatar: user.avatar }]));
    setText("");
  };
  const remove = (address: string) => {
    if (address === me) return setMessage(MINT_MESSAGES.omitYourself);
    setMessage(null);
    setPeople(evenly(people.filter((p) => p.address !== address)));
  };
  const setShare = (address: string, share: number) =>
    setPeople(people.map((p) => (p.address === address ? { ...p, share } : p)));

  return (
    <div className="flex flex-col gap-4">
      <ul className="flex flex-col gap-2" aria-label="Recipients">
        {people.map((person) => {
          const error = people.length > 1 ? shareError(person.share) : null;
          const label = person.address === me ? "You" : person.username || shortAddress(person.address);
          return (
            <li key={person.address} className="flex flex-col gap-1">
              <div className="flex items-center gap-3">
                <Avatar address={person.address} src={mediaUrl(person.avatar)} className="size-8" />
                <span className="min-w-0 flex-1 truncate text-sm font-medium">{label}</span>
                <span className="flex items-center gap-1 text-sm">
                  <input
                    aria-label={`Share of ${label} in percent`}
                    type="number"
                    min={SPLIT_STEP}
                    max={100}
                    step={SPLIT_STEP}
                    value={Number.isNaN(person.share) ? "" : person.share}
                    aria-invalid={error ? true : undefined}
                    onChange={(event) => setShare(person.address, event.target.valueAsNumber)}
                    className={`${inputClass} w-20`}
                  />
                  %
                </span>
                <Button
                  variant="ghost"
                  className="px-2"
                  aria-label={`Remove ${label}`}
                  onClick={() => remove(person.address)}
                >
                  ✕
                </Button>
              </div>
              {error ? <p className="text-sm text-red-700 dark:text-red-400">{error}</p> : null}
            </li>
          );
        })}
      </ul>
      <p className="text-sm font-semibold tabular-nums" aria-live="polite">
        Total: {Number.isNaN(total) ? "—" : total}%
        {total > 100 ? (
          <span className="ml-2 font-normal text-red-700 dark:text-red-400">{MINT_MESSAGES.totalAbove}</span>
        ) : null}
      </p>
      <div className="flex flex-col gap-1.5">
        <label htmlFor={searchId} className="text-sm font-semibold">
          Add a collaborator
        </label>
        <input
          id={searchId}
          value={text}
          onChange={(event) => setText(event.target.value)}
          placeholder="Address (0x…) or username"
          autoComplete="off"
          className={inputClass}
        />
        {text.trim() && search.data ? (
          search.data.length === 0 ? (
            <p className="text-sm text-neutral-600 dark:text-neutral-400">No Options</p>
          ) : (
            <ul className="flex flex-col gap-1" aria-label="People found">
              {search.data.map((user) => (
                <li key={user.address}>
                  <button
                    type="button"
                    className="flex w-full items-center gap-3 rounded-lg px-2 py-1.5 text-left text-sm hover:bg-neutral-100 dark:hover:bg-neutral-800"
                    onClick={() => add(user)}
                  >
                    <Avatar address={user.address} src={mediaUrl(user.avatar)} className="size-7" />
                    <span className="flex-1 truncate">{user.username ?? shortAddress(user.address)}</span>
                    <span className="font-mono text-xs text-neutral-500">{shortAddress(user.address)}</span>
                  </button>
                </li>
              ))}
            </ul>
          )
        ) : text.trim() ? (
          <p className="text-sm text-neutral-600 dark:text-neutral-400">Waiting...</p>
        ) : null}
      </div>
      {message ? (
        <p className="text-sm text-red-700 dark:text-red-400" role="alert">
          {message}
        </p>
      ) : null}
      <div className="flex justify-end gap-2">
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button disabled={total !== 100 || problem !== null} onClick={() => onSave(people)}>
          Split
        </Button>
      </div>
    </div>
  );
}

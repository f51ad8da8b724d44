import { shortAddress } from "@easel/common";
import { useState } from "react";
import { Avatar } from "../../../../ui/Avatar.tsx";
import { Button } from "../../../../ui/Button.tsx";
import { SplitDialog, type SplitPerson } from "../SplitDialog.tsx";

type Props = {
  creator: { address: string; username: string | null; avatar: string | null };
  /** The split as saved (none, or the creator and at least one other). */
  split: SplitPerson[];
  onSplitChange: (people: SplitPerson[]) => void;
  /** Whether the switch is on (it is while the dialog is first open, before a split is saved). */
  on: boolean;
  onToggle: (on: boolean) => void;
};

/** The form's "Split earnings with collaborators" switch, the saved split and the dialog that edits it. */
export function SplitField({ creator, split, onSplitChange, on, onToggle }: Props) {
  const [open, setOpen] = useState(false);
  const people = split.length > 1 ? split : [];
  return (
    <div className="flex flex-col gap-2">
      <label className="flex items-center gap-3 text-sm font-semibold">
        <input
          type="checkbox"
          role="switch"
          checked={on}
          aria-checked={on}
          className="accent-accent-600"
          onChange={(event) => {
            if (event.target.checked) {
              onToggle(true);
              setOpen(true);
            } else {
              onToggle(false);
              onSplitChange([]);
            }
          }}
        />
        Split earnings with collaborators
      </label>
      {people.length ? (
        <div className="flex flex-wrap items-center gap-3 rounded-lg border border-neutral-200 p-3 dark:border-neutral-800">
          <ul className="flex flex-1 flex-wrap gap-3" aria-label="Split">
            {people.map((person) => (
              <li key={person.address} className="flex items-center gap-2 text-sm">
                <Avatar address={person.address} className="size-6" />
                {person.address === creator.address ? "You" : person.username || shortAddress(person.address)}
                <span className="font-semibold tabular-nums">{person.share}%</span>
              </li>
            ))}
          </ul>
          <Button variant="ghost" onClick={() => setOpen(true)}>
            Edit split
          </Button>
        </div>
      ) : null}
      <SplitDialog
        open={open}
        creator={creator}
        initial={split}
        onCancel={() => {
          setOpen(false);
          if (split.length <= 1) onToggle(false);
        }}
        onSave={(saved) => {
          setOpen(false);
          onSplitChange(saved);
          if (saved.length <= 1) onToggle(false);
        }}
      />
    </div>
  );
}

import { MINT_MESSAGES, MINT_TAGS_MAX } from "@easel/common";
import { Button } from "../../../../ui/Button.tsx";
import { FieldShell, inputClass } from "../../../../ui/Field.tsx";
import type { MintFormState } from "./useMintForm.ts";

/** The form's "Tags" field: a tag typed and added with Enter or Add, each removable. */
export function TagsField({
  form,
  text,
  onTextChange,
}: Pick<MintFormState, "form"> & { text: string; onTextChange: (text: string) => void }) {
  const {
    watch,
    setValue,
    setError,
    formState: { errors },
  } = form;
  const tags = watch("tags") ?? [];

  const addTag = () => {
    const tag = text.trim();
    if (!tag) return;
    if (tags.length >= MINT_TAGS_MAX) {
      setError("tags", { message: MINT_MESSAGES.tagsMax });
      return;
    }
    // Each tag once: the same word in another case is the same tag.
    if (!tags.some((t) => t.toLowerCase() === tag.toLowerCase()))
      setValue("tags", [...tags, tag], { shouldValidate: true });
    onTextChange("");
  };

  return (
    <FieldShell
      label="Tags"
      hint={`Up to ${MINT_TAGS_MAX}; press Enter to add one.`}
      error={errors.tags?.message}
    >
      {({ id, describedBy, invalid }) => (
        <div className="flex flex-col gap-2">
          <div className="flex gap-2">
            <input
              id={id}
              value={text}
              aria-describedby={describedBy}
              aria-invalid={invalid || undefined}
              onChange={(event) => onTextChange(event.target.value)}
              onKeyDown={(event) => {
                if (event.key !== "Enter") return;
                event.preventDefault();
                addTag();
              }}
              className={inputClass}
            />
            <Button variant="secondary" onClick={addTag}>
              Add
            </Button>
          </div>
          {tags.length ? (
            <ul className="flex flex-wrap gap-2" aria-label="Tags">
              {tags.map((tag) => (
                <li
                  key={tag}
                  className="flex items-center gap-1 rounded-full bg-neutral-100 px-3 py-1 text-sm dark:bg-neutral-800"
                >
                  {tag}
                  <button
                    type="button"
                    aria-label={`Remove tag ${tag}`}
                    className="text-neutral-500 hover:text-neutral-900 dark:hover:text-neutral-100"
                    onClick={() =>
                      setValue(
                        "tags",
                        tags.filter((t) => t !== tag),
                        { shouldValidate: true },
                      )
                    }
                  >
                    ✕
                  </button>
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      )}
    </FieldShell>
  );
}

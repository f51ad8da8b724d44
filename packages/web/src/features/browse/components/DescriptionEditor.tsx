import { richTextPlain } from "@easel/common";
import { type ReactNode, useId, useRef, useState } from "react";
import { Button } from "../../../ui/Button.tsx";
import { inputClass } from "../../../ui/Field.tsx";
import { fromMarkup } from "../lib/richTextMarkup.ts";
import { RichText } from "./RichText.tsx";

/** The description as rich text: Bold, Italic and Link wrap the selection; the preview shows the result. */
export function DescriptionEditor({
  value,
  error,
  onChange,
  max,
  counter = (length, limit) => `${length} / ${limit}`,
}: {
  value: string;
  error: string | undefined;
  onChange: (text: string) => void;
  /** The most characters of plain text. */
  max: number;
  /** The counter under the field (the mint page words it as the spec does). */
  counter?: (length: number, max: number) => ReactNode;
}) {
  const id = useId();
  const area = useRef<HTMLTextAreaElement>(null);
  const [preview, setPreview] = useState(false);
  const doc = fromMarkup(value);
  const length = richTextPlain(doc).length;
  const wrap = (before: string, after: string, fallback: string) => {
    const element = area.current;
    if (!element) return;
    const { selectionStart: start, selectionEnd: end } = element;
    const selected = value.slice(start, end) || fallback;
    onChange(`${value.slice(0, start)}${before}${selected}${after}${value.slice(end)}`);
    requestAnimationFrame(() => {
      element.focus();
      element.setSelectionRange(start + before.length, start + before.length + selected.length);
    });
  };
  return (
    <section className="flex flex-col gap-2">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <label htmlFor={id} className="text-sm font-semibold">
          Description
        </label>
        <div className="flex gap-1" role="toolbar" aria-label="Formatting">
          <Button variant="ghost" className="px-2 py-1 font-bold" onClick={() => wrap("**", "**", "bold")}>
            Bold
          </Button>
          <Button variant="ghost" className="px-2 py-1 italic" onClick={() => wrap("*", "*", "italic")}>
            Italic
          </Button>
          <Button
            variant="ghost"
            className="px-2 py-1 underline"
            onClick={() => wrap("[", "](https://)", "link text")}
          >
            Link
          </Button>
          <Button
            variant="ghost"
            className="px-2 py-1"
            aria-pressed={preview}
            onClick={() => setPreview((p) => !p)}
          >
            Preview
          </Button>
        </div>
      </div>
      {preview ? (
        <div className="min-h-32 rounded-lg border border-neutral-300 p-3 text-sm dark:border-neutral-700">
          {doc ? <RichText doc={doc} /> : <p className="text-neutral-500">Nothing to preview yet.</p>}
        </div>
      ) : (
        <textarea
          ref={area}
          id={id}
          rows={6}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-hint${error ? ` ${id}-error` : ""}`}
          className={inputClass}
        />
      )}
      <p id={`${id}-hint`} className="text-xs text-neutral-600 dark:text-neutral-400">
        **bold**, *italic*, [words](https://link) · {counter(length, max)}
      </p>
      {error ? (
        <p id={`${id}-error`} className="text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      ) : null}
    </section>
  );
}

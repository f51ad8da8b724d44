import { DESCRIPTION_PREVIEW_CHARS, type RichText as RichTextDoc, richTextPlain } from "@easel/common";
import { useId, useState } from "react";

/** A stored description, read only: paragraphs of text runs (bold, italic, links). No author HTML exists. */
export function RichText({ doc }: { doc: RichTextDoc }) {
  return (
    <>
      {doc.paragraphs.map((paragraph, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: paragraphs have no identity but their order
        <p key={i} className="min-h-[1lh]">
          {paragraph.runs.map((run, j) => {
            let node: React.ReactNode = run.text;
            if (run.bold) node = <strong>{node}</strong>;
            if (run.italic) node = <em>{node}</em>;
            if (run.link) {
              node = (
                <a href={run.link} target="_blank" rel="noopener noreferrer nofollow" className="underline">
                  {node}
                </a>
              );
            }
            // biome-ignore lint/suspicious/noArrayIndexKey: runs have no identity but their order
            return <span key={j}>{node}</span>;
          })}
        </p>
      ))}
    </>
  );
}

/** A description with Show more / Show less past 170 characters. */
export function ExpandableDescription({ doc }: { doc: RichTextDoc | null }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  if (!doc) return null;
  const long = richTextPlain(doc).length > DESCRIPTION_PREVIEW_CHARS;
  return (
    <div className="max-w-2xl text-neutral-700 dark:text-neutral-300">
      <div id={id} className={long && !open ? "line-clamp-3" : undefined}>
        <RichText doc={doc} />
      </div>
      {long ? (
        <button
          type="button"
          className="mt-1 text-sm font-medium text-accent-700 hover:underline dark:text-accent-300"
          aria-expanded={open}
          aria-controls={id}
          onClick={() => setOpen(!open)}
        >
          {open ? "Show less" : "Show more"}
        </button>
      ) : null}
    </div>
  );
}

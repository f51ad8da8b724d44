import { type Ref, useState } from "react";
import { FieldShell } from "../../../ui/Field.tsx";
import { ACCEPTED_FILES } from "../lib/mintForm.ts";
import { isPdf, isVideo } from "../lib/poster.ts";

export type Picked = {
  file: File;
  /** The file itself as a blob URL (images and videos play from it). */
  url: string;
  /** The video's frame or the PDF's first page, once drawn; null while drawing or when it could not be. */
  posterUrl: string | null;
  /** Whether the poster is still being drawn. */
  drawing: boolean;
};

type Props = {
  picked: Picked | null;
  /** Files may be picked only once a type is chosen (the spec); before that, `onBlocked` explains. */
  enabled: boolean;
  error: string | undefined;
  onPick: (file: File) => void;
  onBlocked: () => void;
  inputRef?: Ref<HTMLInputElement>;
  onBlur?: () => void;
};

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/**
 * The artwork's drop zone: drop a file on it, or pick one (the native file input, kept for keyboards and
 * screen readers, is the zone's focusable control and shows its focus ring on the zone). The artwork shows in
 * it at once: the image, the playing video, or the PDF's first page.
 */
export function MintDropzone({ picked, enabled, error, onPick, onBlocked, inputRef, onBlur }: Props) {
  const [over, setOver] = useState(false);
  const take = (file: File | undefined) => {
    if (!file) return;
    if (!enabled) onBlocked();
    else onPick(file);
  };
  return (
    <FieldShell
      label="Upload file"
      hint="Image (PNG, JPEG, GIF, WebP), video (MP4, WebM) or PDF, up to 50MB."
      error={error}
    >
      {({ id, describedBy, invalid }) => (
        // biome-ignore lint/a11y/noStaticElementInteractions: dropping is the pointer's extra; the input inside is the control
        <div
          data-testid="dropzone"
          className={`relative flex min-h-56 flex-col items-center justify-center gap-3 overflow-hidden rounded-2xl border-2 border-dashed p-4 text-center transition-colors has-[input:focus-visible]:outline-2 has-[input:focus-visible]:outline-offset-2 has-[input:focus-visible]:outline-accent-600 ${
            over
              ? "border-accent-600 bg-accent-50 dark:bg-accent-700/20"
              : invalid
                ? "border-red-600 bg-white dark:bg-neutral-950"
                : "border-neutral-300 bg-neutral-50 dark:border-neutral-700 dark:bg-neutral-900"
          } ${enabled ? "cursor-pointer" : "cursor-not-allowed"}`}
          onDragOver={(event) => {
            event.preventDefault();
            setOver(true);
          }}
          onDragLeave={() => setOver(false)}
          onDrop={(event) => {
            event.preventDefault();
            setOver(false);
            take(event.dataTransfer.files?.[0]);
          }}
        >
          {/* Covering the zone, the input takes clicks anywhere on it; it is invisible but stays focusable. */}
          <input
            ref={inputRef}
            id={id}
            type="file"
            accept={ACCEPTED_FILES}
            aria-describedby={describedBy}
            aria-invalid={invalid || undefined}
            aria-disabled={!enabled || undefined}
            className="absolute inset-0 z-10 size-full cursor-[inherit] opacity-0"
            onBlur={onBlur}
            onKeyDown={(event) => {
              if (enabled || (event.key !== "Enter" && event.key !== " ")) return;
              event.preventDefault();
              onBlocked();
            }}
            onClick={(event) => {
              if (enabled) return;
              event.preventDefault();
              onBlocked();
            }}
            onChange={(event) => {
              take(event.target.files?.[0]);
              // The same file picked again after a change still fires.
              event.target.value = "";
            }}
          />
          {picked ? <Artwork picked={picked} /> : <UploadIcon className="size-10 text-neutral-400" />}
          <p className="text-sm">
            {picked ? (
              <>
                <span className="font-semibold">{picked.file.name}</span> · {megabytes(picked.file.size)}
                <span className="block text-neutral-600 dark:text-neutral-400">
                  Drop another file or click to replace it
                </span>
              </>
            ) : enabled ? (
              <>
                <span className="font-semibold text-accent-700 dark:text-accent-400">Choose a file</span> or
                drag and drop it here
              </>
            ) : (
              <span className="text-neutral-600 dark:text-neutral-400">
                Choose a type above, then your artwork
              </span>
            )}
          </p>
        </div>
      )}
    </FieldShell>
  );
}

const reducedMotion = () =>
  typeof window !== "undefined" && !!window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;

/** The picked artwork as it will be seen: the image, the video (muted, looping) or the PDF's first page. */
function Artwork({ picked }: { picked: Picked }) {
  const box = "max-h-80 w-auto max-w-full rounded-lg object-contain";
  if (isVideo(picked.file))
    return (
      <video
        src={picked.url}
        muted
        loop
        // It plays at once, unless the artist asked for less motion (then its controls play it).
        autoPlay={!reducedMotion()}
        controls={reducedMotion()}
        playsInline
        className={box}
        aria-label="Video preview"
      />
    );
  if (isPdf(picked.file))
    return picked.posterUrl ? (
      <img src={picked.posterUrl} alt="First page of the PDF" className={`${box} bg-white shadow`} />
    ) : (
      <span
        role="img"
        aria-label={picked.drawing ? "Drawing the first page" : "PDF"}
        className={`flex size-40 items-center justify-center rounded-lg bg-white text-sm font-semibold text-neutral-600 shadow dark:bg-neutral-800 dark:text-neutral-300 ${picked.drawing ? "motion-safe:animate-pulse" : ""}`}
      >
        PDF
      </span>
    );
  return <img src={picked.url} alt="Preview of the artwork" className={box} />;
}

function UploadIcon({ className }: { className: string }) {
  return (
    <svg
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.5"
      aria-hidden="true"
      className={className}
    >
      <path
        d="M12 16V4m0 0-4 4m4-4 4 4M4 16v3a1 1 0 0 0 1 1h14a1 1 0 0 0 1-1v-3"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

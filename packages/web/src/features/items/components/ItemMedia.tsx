import { itemPagePictureSet, type ItemMedia as Media, mediaUrl } from "@easel/common";
import * as Dialog from "@radix-ui/react-dialog";
import { useEffect, useRef, useState } from "react";
import { Button } from "../../../ui/Button.tsx";
import type { ArtworkCheck } from "../verify/useArtworkCheck.ts";

/** Where a person checks the proof themselves: the mint transaction on the explorer. */
export type Proof = { mintTx: string | null; explorerUrl: string | null };

/**
 * The artwork: the page preview (a video shows its poster until it is played, a PDF shows its placeholder), and a full-screen
 * viewer with the original: images zoom (click or the buttons), videos play, PDFs are read in the browser.
 * The original is checked against the chain (`check`): once proven, the page shows the proven bytes and a
 * Verified mark; a file that does not match is not shown at all.
 */
export function ItemMedia({
  media,
  name,
  check = { status: "off" },
  proof = { mintTx: null, explorerUrl: null },
  onReport,
  pixelated = false,
}: {
  media: Media | null;
  name: string;
  check?: ArtworkCheck;
  proof?: Proof;
  onReport?: () => void;
  /** Pixel art: its pixels drawn square and sharp at any size, never smoothed. */
  pixelated?: boolean;
}) {
  const [open, setOpen] = useState(false);
  const pixels = pixelated ? ({ imageRendering: "pixelated" } as const) : undefined;
  if (!media) {
    return (
      <div
        role="img"
        aria-label={`${name}: no image`}
        className="flex aspect-square w-full items-center justify-center rounded-2xl bg-neutral-100 text-neutral-500 dark:bg-neutral-900"
      >
        No image
      </div>
    );
  }
  if (check.status === "mismatch") {
    return (
      <div
        role="alert"
        className="flex aspect-square w-full flex-col items-center justify-center gap-3 rounded-2xl border border-red-300 bg-red-50 p-6 text-center text-red-900 dark:border-red-900 dark:bg-red-950 dark:text-red-100"
      >
        <p className="text-lg font-semibold">This file does not match the token, so it is not shown.</p>
        <p className="text-sm">{check.message}</p>
        {onReport ? (
          <Button variant="secondary" onClick={onReport}>
            Report this item
          </Button>
        ) : null}
      </div>
    );
  }
  const proven = check.status === "verified" ? check.url : null;
  const gateway = mediaUrl(media.cid) as string;
  const original = proven ?? gateway;
  const video = media.mime.startsWith("video/");
  const pdf = media.mime === "application/pdf";
  const sized = !pdf && !!media.width && !!media.height;
  // The server preloads this same picture with the page (a phone takes the smaller copy of `srcSet`); once
  // proven, an image shows its original bytes.
  const picture = proven && !video && !pdf ? { src: proven } : itemPagePictureSet(media);
  return (
    <figure className="flex flex-col gap-2">
      <div className="overflow-hidden rounded-2xl bg-neutral-100 dark:bg-neutral-900">
        {video ? (
          // A video's size is known only once it loads: a box of fixed shape keeps the page from moving then.
          <VideoPlayer src={original} poster={picture.src} name={name} />
        ) : (
          <button type="button" className="block w-full cursor-zoom-in" onClick={() => setOpen(true)}>
            <img
              // A new element for the proven original: one whose srcset was removed kept its copy's density.
              key={proven ? "proven" : "preview"}
              src={picture.src}
              srcSet={picture.srcSet}
              sizes={picture.sizes}
              alt={name}
              // The picture's own size reserves its place before it loads (no layout shift), and keeps it
              // whichever copy fills it: a phone's copy is rounded to whole pixels, the original is not.
              width={pdf ? undefined : (media.width ?? undefined)}
              height={pdf ? undefined : (media.height ?? undefined)}
              fetchPriority="high"
              style={{ ...pixels, ...(sized ? { aspectRatio: `${media.width} / ${media.height}` } : {}) }}
              className="max-h-[70vh] w-full object-contain"
            />
          </button>
        )}
      </div>
      <figcaption className="text-sm text-neutral-600 dark:text-neutral-400" aria-live="polite">
        <CheckStatus check={check} proof={proof} derived={!video && !pdf && !proven && !!media.preview} />
      </figcaption>
      <div className="flex justify-end">
        <Button variant="ghost" className="text-sm" onClick={() => setOpen(true)}>
          {pdf ? "Read the PDF" : "View full screen"}
        </Button>
      </div>
      <Dialog.Root open={open} onOpenChange={setOpen}>
        {/* Drawn only while open: a closed Radix portal still sets state while React commits the page. */}
        {open ? (
          <Dialog.Portal>
            <Dialog.Overlay className="fixed inset-0 z-40 bg-neutral-950/90" />
            <Dialog.Content className="fixed inset-0 z-50 flex flex-col">
              <Dialog.Title className="sr-only">{name}</Dialog.Title>
              <Dialog.Description className="sr-only">The artwork in full screen</Dialog.Description>
              <div className="flex justify-end gap-2 p-3">
                {pdf ? (
                  <a
                    href={gateway}
                    target="_blank"
                    rel="noopener noreferrer"
                    className="rounded-lg px-3 py-2 text-sm font-semibold text-white hover:bg-white/10"
                  >
                    Open in a new tab
                  </a>
                ) : null}
                <Dialog.Close className="rounded-lg px-3 py-2 text-sm font-semibold text-white hover:bg-white/10">
                  Close
                </Dialog.Close>
              </div>
              <div className="min-h-0 flex-1 overflow-auto">
                {video ? (
                  // biome-ignore lint/a11y/useMediaCaption: artworks carry no captions
                  <video
                    src={original}
                    controls
                    autoPlay
                    playsInline
                    className="mx-auto max-h-full max-w-full"
                  />
                ) : pdf ? (
                  <iframe src={gateway} title={name} className="h-full w-full bg-white" />
                ) : (
                  <ZoomableImage src={original} alt={name} pixelated={pixelated} />
                )}
              </div>
            </Dialog.Content>
          </Dialog.Portal>
        ) : null}
      </Dialog.Root>
    </figure>
  );
}

/**
 * A video shows its poster and a Play button; it loads nothing and has no player controls until it is asked to
 * play. Chromium's controls draw a loading spinner for a video with a source even before any of it is fetched,
 * and on a phone that animation redrew the screen through the page's whole start. Asked to play, it plays
 * from the gateway while the worker proves it (it may be large); once proven, the player moves to the proven
 * bytes where it was, playing or paused as it was.
 */
function VideoPlayer({ src, poster, name }: { src: string; poster: string; name: string }) {
  const ref = useRef<HTMLVideoElement>(null);
  const [started, setStarted] = useState(false);
  const playing = useRef<string | null>(null);
  useEffect(() => {
    const video = ref.current;
    if (!video || playing.current === null || playing.current === src) return;
    playing.current = src;
    const at = video.currentTime;
    const wasPlaying = !video.paused;
    video.src = src;
    video.addEventListener(
      "loadedmetadata",
      () => {
        video.currentTime = at;
        if (wasPlaying) video.play().catch(() => {});
      },
      { once: true },
    );
  }, [src]);
  const play = () => {
    const video = ref.current;
    if (!video) return;
    playing.current = src;
    video.src = src;
    setStarted(true);
    // In the tap's own handler: a phone lets a video with sound start only there.
    video.play().catch(() => {});
  };
  return (
    <div className="relative">
      {/* biome-ignore lint/a11y/useMediaCaption: artworks carry no captions */}
      <video
        ref={ref}
        poster={poster}
        controls={started}
        playsInline
        preload="none"
        className="aspect-square max-h-[70vh] w-full bg-black object-contain"
      />
      {started ? null : (
        <button
          type="button"
          onClick={play}
          aria-label={`Play ${name}`}
          className="group absolute inset-0 flex items-center justify-center"
        >
          <PlayMark />
        </button>
      )}
    </div>
  );
}

/** The Play button's mark, drawn the same in the page's first frame (packages/server/src/web/firstPaint.ts). */
function PlayMark() {
  return (
    <span className="flex size-16 items-center justify-center rounded-full bg-black/60 text-white group-hover:bg-black/75 group-focus-visible:ring-4 group-focus-visible:ring-white">
      <svg viewBox="0 0 24 24" className="ml-1 size-8" fill="currentColor" aria-hidden="true">
        <path d="M7 4.5v15l13-7.5z" />
      </svg>
    </span>
  );
}

const shortCid = (cid: string) => `${cid.slice(0, 10)}…${cid.slice(-6)}`;

/** What the check has found so far, in one line; a proven file gets the Verified mark and its proof. */
function CheckStatus({ check, proof, derived }: { check: ArtworkCheck; proof: Proof; derived: boolean }) {
  if (check.status === "checking")
    return (
      <span>
        Checking the artwork against the chain…
        {derived ? " The picture is a preview Easel made from the original." : ""}
      </span>
    );
  if (check.status === "error")
    return (
      <span>
        Not verified: {check.message}
        {derived ? " The picture is a preview Easel made from the original." : ""}
      </span>
    );
  if (check.status !== "verified")
    return derived ? <span>The picture is a preview Easel made from the original.</span> : null;
  const tx = proof.mintTx;
  return (
    <span className="flex flex-wrap items-center gap-x-2 gap-y-1">
      <span className="inline-flex items-center gap-1 rounded-full bg-emerald-50 px-2 py-0.5 font-semibold text-emerald-800 dark:bg-emerald-950 dark:text-emerald-200">
        <svg viewBox="0 0 16 16" className="size-3.5" aria-hidden="true">
          <path
            d="M3 8.5 6.5 12 13 4.5"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
            strokeLinecap="round"
          />
        </svg>
        Verified
      </span>
      <span>
        Every byte of this file matches the artwork CID in the metadata that the token's tokenURI names on the
        chain.
      </span>
      <span className="flex flex-wrap gap-x-3">
        {tx ? (
          proof.explorerUrl ? (
            <a
              href={`${proof.explorerUrl}/tx/${tx}`}
              target="_blank"
              rel="noopener noreferrer"
              className="underline"
            >
              Mint transaction
            </a>
          ) : (
            <span title={tx}>Mint transaction {tx.slice(0, 10)}…</span>
          )
        ) : null}
        <a href={`/ipfs/${check.metadataCid}`} title={check.metadataCid} className="underline">
          Metadata {shortCid(check.metadataCid)}
        </a>
        <a href={`/ipfs/${check.artworkCid}`} title={check.artworkCid} className="underline">
          Artwork {shortCid(check.artworkCid)}
        </a>
      </span>
    </span>
  );
}

const ZOOMS = [1, 1.5, 2, 3, 4];

function ZoomableImage({ src, alt, pixelated }: { src: string; alt: string; pixelated: boolean }) {
  const [zoom, setZoom] = useState(0);
  const scale = ZOOMS[zoom] ?? 1;
  return (
    <div className="flex min-h-full flex-col items-center">
      <fieldset className="sticky top-0 z-10 flex gap-2 p-2">
        <legend className="sr-only">Zoom</legend>
        <Button variant="secondary" disabled={zoom === 0} onClick={() => setZoom((z) => Math.max(0, z - 1))}>
          Zoom out
        </Button>
        <span className="self-center text-sm text-white tabular-nums" aria-live="polite">
          {Math.round(scale * 100)}%
        </span>
        <Button
          variant="secondary"
          disabled={zoom === ZOOMS.length - 1}
          onClick={() => setZoom((z) => Math.min(ZOOMS.length - 1, z + 1))}
        >
          Zoom in
        </Button>
      </fieldset>
      <button
        type="button"
        className={scale > 1 ? "cursor-zoom-out" : "cursor-zoom-in"}
        onClick={() => setZoom((z) => (z === ZOOMS.length - 1 ? 0 : z + 1))}
      >
        <img
          src={src}
          alt={alt}
          style={{
            width: `${scale * 100}%`,
            maxWidth: scale === 1 ? "100%" : "none",
            ...(pixelated ? { imageRendering: "pixelated" } : {}),
          }}
          className={scale === 1 ? "max-h-[85vh] object-contain" : ""}
        />
      </button>
    </div>
  );
}

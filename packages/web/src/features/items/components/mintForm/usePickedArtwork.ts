import { useEffect, useRef, useState } from "react";
import { capturePoster, isPdf, isVideo } from "../../lib/poster.ts";
import type { Picked } from "../MintDropzone.tsx";

/**
 * The artwork picked for the upload: shown at once from a blob URL, and for a video or PDF a poster drawn
 * for its card (sent with the file). The blob URLs live until another file replaces them or the page closes.
 */
export function usePickedArtwork() {
  const [picked, setPicked] = useState<Picked | null>(null);
  /** The poster being drawn for the picked video or PDF. */
  const poster = useRef<Promise<Blob | null> | null>(null);

  const pickedUrl = picked?.url;
  const posterUrl = picked?.posterUrl;
  useEffect(() => () => (pickedUrl ? URL.revokeObjectURL(pickedUrl) : undefined), [pickedUrl]);
  useEffect(() => () => (posterUrl ? URL.revokeObjectURL(posterUrl) : undefined), [posterUrl]);

  /** Shows the artwork at once, and draws a video's or PDF's poster for its card. */
  const pick = (file: File) => {
    const drawing = isVideo(file) || isPdf(file);
    const job = drawing ? capturePoster(file) : null;
    poster.current = job;
    setPicked({ file, url: URL.createObjectURL(file), posterUrl: null, drawing });
    void job?.then((blob) => {
      if (poster.current !== job) return;
      setPicked((p) =>
        p?.file === file ? { ...p, posterUrl: blob ? URL.createObjectURL(blob) : null, drawing: false } : p,
      );
    });
  };

  const clear = () => {
    setPicked(null);
    poster.current = null;
  };

  /** The poster drawn for the picked file, once it is done (null for a picture, or when drawing failed). */
  const finishedPoster = async () => (poster.current ? await poster.current : null);

  /** The picture the preview card shows: the artwork itself, or a video's or PDF's poster. */
  const still =
    picked && !isVideo(picked.file) && !isPdf(picked.file) ? picked.url : (picked?.posterUrl ?? null);

  return { picked, pick, clear, finishedPoster, still };
}

export type PickedArtwork = ReturnType<typeof usePickedArtwork>;

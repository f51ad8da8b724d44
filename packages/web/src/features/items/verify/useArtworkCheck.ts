import { useEffect, useState } from "react";
import type { CheckRequest, CheckUpdate } from "./protocol.ts";

export type ArtworkCheck =
  | { status: "off" }
  | { status: "checking"; tokenUri: string | null; bytes: number }
  | { status: "verified"; tokenUri: string; metadataCid: string; artworkCid: string; url: string }
  | { status: "mismatch"; message: string }
  | { status: "error"; message: string };

/**
 * Checks the artwork the page shows against the chain, in a Web Worker (verify.worker.ts): its code and the
 * hashing stay off the main thread and out of the page's first load. It starts once the page has loaded, so
 * the preview picture is not kept waiting. A verified file comes back as a Blob URL of the proven bytes.
 */
export function useArtworkCheck(request: CheckRequest | null): ArtworkCheck {
  const [check, setCheck] = useState<ArtworkCheck>({ status: "off" });
  const key = request ? JSON.stringify(request) : null;
  useEffect(() => {
    if (!key || typeof Worker === "undefined") {
      setCheck({ status: "off" });
      return;
    }
    const ask = JSON.parse(key) as CheckRequest;
    setCheck({ status: "checking", tokenUri: null, bytes: 0 });
    let worker: Worker | null = null;
    let url: string | null = null;
    const start = () => {
      worker = new Worker(new URL("./verify.worker.ts", import.meta.url), { type: "module" });
      worker.onmessage = (event: MessageEvent<CheckUpdate>) => {
        const update = event.data;
        if (update.type === "progress")
          setCheck({ status: "checking", tokenUri: update.tokenUri, bytes: update.bytes ?? 0 });
        else if (update.type === "verified") {
          url = URL.createObjectURL(update.file);
          setCheck({
            status: "verified",
            tokenUri: update.tokenUri,
            metadataCid: update.metadataCid,
            artworkCid: update.artworkCid,
            url,
          });
        } else setCheck({ status: update.type, message: update.message });
        if (update.type !== "progress") worker?.terminate();
      };
      worker.onerror = () =>
        setCheck({ status: "error", message: "The check could not run in this browser." });
      worker.postMessage(ask);
    };
    if (document.readyState === "complete") start();
    else window.addEventListener("load", start, { once: true });
    return () => {
      window.removeEventListener("load", start);
      worker?.terminate();
      if (url) URL.revokeObjectURL(url);
    };
  }, [key]);
  return check;
}

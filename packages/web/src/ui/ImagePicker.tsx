import { MAX_UPLOAD_BYTES, MESSAGES } from "@easel/common";
import { type ReactNode, useEffect, useId, useRef, useState } from "react";
import { toast } from "sonner";
import { errorMessage } from "../api/client.ts";
import { uploadMedia } from "../api/media.ts";
import { CROP_PRESETS, type CropKind } from "../lib/cropImage.ts";
import { ImageCropDialog } from "./ImageCropDialog.tsx";

/** Choose a file, crop it, upload it with a progress percentage; hands back the gateway path. */
export function ImagePicker({
  kind,
  preview,
  error,
  onUploaded,
}: {
  kind: CropKind;
  preview: ReactNode;
  error?: string | undefined;
  onUploaded: (path: string) => void;
}) {
  const preset = CROP_PRESETS[kind];
  const inputId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [source, setSource] = useState<{ url: string; type: string; name: string } | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => () => (source ? URL.revokeObjectURL(source.url) : undefined), [source]);

  const close = () => {
    setSource(null);
    if (inputRef.current) inputRef.current.value = "";
  };

  return (
    <div className="flex flex-col gap-2">
      <div className={kind === "banner" ? "overflow-hidden rounded-xl" : ""}>{preview}</div>
      <div className="flex flex-wrap items-center gap-3">
        <label htmlFor={inputId} className="text-sm font-semibold">
          {preset.label}
        </label>
        <input
          ref={inputRef}
          id={inputId}
          type="file"
          accept="image/png,image/jpeg,image/gif,image/webp"
          className="text-sm file:mr-3 file:rounded-lg file:border file:border-neutral-300 file:bg-white file:px-3 file:py-1.5 file:text-sm file:font-semibold dark:file:border-neutral-700 dark:file:bg-neutral-900 dark:file:text-neutral-100"
          aria-describedby={`${inputId}-hint`}
          onChange={(event) => {
            const file = event.target.files?.[0];
            setProblem(null);
            if (!file) return;
            if (file.size >= MAX_UPLOAD_BYTES) {
              setProblem(MESSAGES.fileTooLarge);
              event.target.value = "";
              return;
            }
            if (!/^image\/(png|jpeg|gif|webp)$/.test(file.type)) {
              setProblem(MESSAGES.imageType);
              event.target.value = "";
              return;
            }
            setSource({ url: URL.createObjectURL(file), type: file.type, name: file.name });
          }}
        />
        {progress !== null ? (
          <span role="status" className="text-sm tabular-nums text-neutral-700 dark:text-neutral-300">
            {progress < 100 ? `Uploading ${progress}%` : `Uploaded 100%`}
          </span>
        ) : null}
      </div>
      <p id={`${inputId}-hint`} className="text-xs text-neutral-600 dark:text-neutral-400">
        PNG, JPEG, GIF or WebP under 10MB. Recommended {preset.recommended}.
      </p>
      {progress !== null && progress < 100 ? (
        <progress
          max={100}
          value={progress}
          className="h-1.5 w-full max-w-sm accent-accent-600"
          aria-label={`${preset.label} upload`}
        />
      ) : null}
      {problem || error ? <p className="text-sm text-red-700 dark:text-red-400">{problem ?? error}</p> : null}
      <ImageCropDialog
        kind={kind}
        source={source}
        onCancel={close}
        onApply={async (blob) => {
          setProgress(0);
          try {
            const ext = blob.type === "image/jpeg" ? "jpg" : "png";
            const uploaded = await uploadMedia(blob, setProgress, `${kind}.${ext}`);
            onUploaded(uploaded.path);
            toast.success(MESSAGES.imageUploaded);
            close();
          } catch (failure) {
            setProgress(null);
            setProblem(errorMessage(failure));
            close();
          }
        }}
      />
    </div>
  );
}

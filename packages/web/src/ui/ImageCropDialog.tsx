import { useCallback, useId, useState } from "react";
import Cropper, { type Area } from "react-easy-crop";
import { CROP_PRESETS, type CropKind, cropToBlob } from "../lib/cropImage.ts";
import { Button } from "./Button.tsx";
import { Modal } from "./Modal.tsx";

export const ZOOM = { min: 1, max: 3, step: 0.1 } as const;

/**
 * Crop dialog for profile images: zoom 1 to 3 in steps of 0.1; the avatar is round with ratio 1, the
 * banner rectangular with ratio 2.4. Apply hands back the cropped image.
 */
export function ImageCropDialog({
  kind,
  source,
  onCancel,
  onApply,
}: {
  kind: CropKind;
  /** Object URL and type of the chosen file; null closes the dialog. */
  source: { url: string; type: string } | null;
  onCancel: () => void;
  onApply: (blob: Blob) => void | Promise<void>;
}) {
  const preset = CROP_PRESETS[kind];
  const [crop, setCrop] = useState({ x: 0, y: 0 });
  const [zoom, setZoom] = useState<number>(ZOOM.min);
  const [area, setArea] = useState<Area | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const zoomId = useId();
  const onCropComplete = useCallback((_: Area, pixels: Area) => setArea(pixels), []);

  return (
    <Modal
      open={source !== null}
      onOpenChange={(open) => {
        if (!open && !busy) onCancel();
      }}
      title={`Crop your ${preset.label.toLowerCase()}`}
      description={`Recommended size ${preset.recommended}.`}
      className="max-w-2xl"
    >
      {source ? (
        <div className="flex flex-col gap-4">
          <div className="relative h-72 overflow-hidden rounded-xl bg-neutral-900 sm:h-96">
            <Cropper
              image={source.url}
              crop={crop}
              zoom={zoom}
              minZoom={ZOOM.min}
              maxZoom={ZOOM.max}
              zoomSpeed={ZOOM.step}
              aspect={preset.aspect}
              cropShape={preset.round ? "round" : "rect"}
              showGrid={!preset.round}
              onCropChange={setCrop}
              onZoomChange={setZoom}
              onCropComplete={onCropComplete}
            />
          </div>
          <div className="flex items-center gap-3">
            <label htmlFor={zoomId} className="text-sm font-semibold">
              Zoom
            </label>
            <input
              id={zoomId}
              type="range"
              min={ZOOM.min}
              max={ZOOM.max}
              step={ZOOM.step}
              value={zoom}
              onChange={(event) => setZoom(Number(event.target.value))}
              className="flex-1 accent-accent-600"
            />
            <output htmlFor={zoomId} className="w-10 text-right text-sm tabular-nums">
              {zoom.toFixed(1)}×
            </output>
          </div>
          {error ? <p className="text-sm text-red-700 dark:text-red-400">{error}</p> : null}
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={onCancel} disabled={busy}>
              Cancel
            </Button>
            <Button
              loading={busy}
              disabled={!area}
              onClick={async () => {
                if (!area) return;
                setBusy(true);
                setError(null);
                try {
                  const blob = await cropToBlob(source.url, area, preset.outputWidth, source.type);
                  await onApply(blob);
                } catch (failure) {
                  setError(failure instanceof Error ? failure.message : String(failure));
                } finally {
                  setBusy(false);
                }
              }}
            >
              Apply
            </Button>
          </div>
        </div>
      ) : null}
    </Modal>
  );
}

/** The crop area react-easy-crop reports, in pixels of the source image. */
export type PixelArea = { x: number; y: number; width: number; height: number };

/** Target sizes: avatar 350x350; the banner at the spec's ratio 2.4 (1920x800), the ratio it is shown at. */
export const CROP_PRESETS = {
  avatar: { aspect: 1, round: true, outputWidth: 350, label: "Avatar", recommended: "350x350" },
  // Shown at this same ratio at every width (ProfileBanner): what is cropped is what is seen.
  banner: { aspect: 2.4, round: false, outputWidth: 1920, label: "Banner", recommended: "1920x800" },
  logo: { aspect: 1, round: false, outputWidth: 350, label: "Logo", recommended: "350x350" },
} as const;
export type CropKind = keyof typeof CROP_PRESETS;

function loadImage(src: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const image = new Image();
    image.onload = () => resolve(image);
    image.onerror = () => reject(new Error("This image cannot be read."));
    image.src = src;
  });
}

/**
 * Draws the cropped area of an image onto a canvas, scaled down to at most `outputWidth` wide, and
 * returns it as a PNG (JPEG sources stay JPEG, to keep photos small).
 */
export async function cropToBlob(
  src: string,
  area: PixelArea,
  outputWidth: number,
  sourceType: string,
): Promise<Blob> {
  const image = await loadImage(src);
  const scale = Math.min(1, outputWidth / area.width);
  const width = Math.max(1, Math.round(area.width * scale));
  const height = Math.max(1, Math.round(area.height * scale));
  const canvas = document.createElement("canvas");
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext("2d");
  if (!context) throw new Error("This browser cannot crop images.");
  context.imageSmoothingQuality = "high";
  context.drawImage(image, area.x, area.y, area.width, area.height, 0, 0, width, height);
  const type = sourceType === "image/jpeg" ? "image/jpeg" : "image/png";
  return new Promise((resolve, reject) =>
    canvas.toBlob(
      (blob) => (blob ? resolve(blob) : reject(new Error("The crop could not be saved."))),
      type,
      0.92,
    ),
  );
}

/**
 * A video's or PDF's poster, drawn in the browser when the artist picks the file: a frame of the video, or the
 * PDF's first page (pdf.js, loaded only here). The server has no video or PDF renderer: it checks the poster
 * like any image and shows it on the item's card. Any failure answers null, and the item mints with its
 * type's tile.
 */

/** The poster's long side, in pixels: the item page's preview size. */
const POSTER_SIDE = 1200;
/** A file the browser cannot open in this time gets no poster. */
const CAPTURE_TIMEOUT_MS = 15_000;

export const isVideo = (file: File) => file.type.startsWith("video/") || /\.(mp4|webm)$/i.test(file.name);
export const isPdf = (file: File) => file.type === "application/pdf" || /\.pdf$/i.test(file.name);

/** The poster of a video or PDF as an image blob, or null (another type, or the browser could not draw it). */
export async function capturePoster(file: File): Promise<Blob | null> {
  const draw = isVideo(file) ? videoFrame : isPdf(file) ? pdfFirstPage : null;
  if (!draw) return null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), CAPTURE_TIMEOUT_MS);
  });
  try {
    return await Promise.race([draw(file), timeout]);
  } catch {
    return null;
  } finally {
    clearTimeout(timer);
  }
}

/** A canvas of the source's shape whose long side is at most `POSTER_SIDE`. */
function canvasFor(width: number, height: number) {
  const scale = Math.min(1, POSTER_SIDE / Math.max(width, height));
  const canvas = document.createElement("canvas");
  canvas.width = Math.max(1, Math.round(width * scale));
  canvas.height = Math.max(1, Math.round(height * scale));
  return canvas;
}

/** WebP where the browser encodes it (PNG elsewhere; the server reads the type from the bytes). */
const toBlob = (canvas: HTMLCanvasElement) =>
  new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, "image/webp", 0.9));

/** A frame a little into the video (its very first is often black), drawn to a canvas. */
async function videoFrame(file: File): Promise<Blob | null> {
  const url = URL.createObjectURL(file);
  const video = document.createElement("video");
  video.muted = true;
  video.playsInline = true;
  video.preload = "auto";
  try {
    const once = (event: string) =>
      new Promise<void>((resolve, reject) => {
        video.addEventListener(event, () => resolve(), { once: true });
        video.addEventListener("error", () => reject(new Error("the video does not load")), { once: true });
      });
    const loaded = once("loadeddata");
    video.src = url;
    await loaded;
    const duration = Number.isFinite(video.duration) ? video.duration : 0;
    const seeked = once("seeked");
    video.currentTime = Math.min(1, duration / 4);
    await seeked;
    if (!video.videoWidth || !video.videoHeight) return null;
    const canvas = canvasFor(video.videoWidth, video.videoHeight);
    canvas.getContext("2d")?.drawImage(video, 0, 0, canvas.width, canvas.height);
    return await toBlob(canvas);
  } finally {
    video.removeAttribute("src");
    video.load();
    URL.revokeObjectURL(url);
  }
}

/** The PDF's first page, drawn by pdf.js (its worker is a file of the build, served by Vite). */
async function pdfFirstPage(file: File): Promise<Blob | null> {
  const [pdfjs, worker] = await Promise.all([
    import("pdfjs-dist"),
    import("pdfjs-dist/build/pdf.worker.min.mjs?url"),
  ]);
  pdfjs.GlobalWorkerOptions.workerSrc = worker.default;
  const task = pdfjs.getDocument({ data: new Uint8Array(await file.arrayBuffer()) });
  try {
    const pdf = await task.promise;
    const page = await pdf.getPage(1);
    const natural = page.getViewport({ scale: 1 });
    const viewport = page.getViewport({
      scale: POSTER_SIDE / Math.max(natural.width, natural.height),
    });
    const canvas = canvasFor(viewport.width, viewport.height);
    await page.render({ canvas, viewport }).promise;
    return await toBlob(canvas);
  } finally {
    await task.destroy();
  }
}

/**
 * Moving and printed artworks for the demo marketplace, made here without any media tool: a looping WebM
 * video (each frame an SVG drawn by sharp as a lossy WebP, whose VP8 key frame goes unchanged into the WebM
 * container) and a PDF sketchbook written by hand in PDF's own drawing operators.
 */
import { BufferTarget, EncodedPacket, EncodedVideoPacketSource, Output, WebMOutputFormat } from "mediabunny";
import sharp from "sharp";
import { PALETTES, randomSource } from "./art.ts";

const LOOP_SIZE = 480;
const LOOP_FPS = 12;
const LOOP_FRAMES = 48;

/** A loop's lights: each drifts on a Lissajous path that closes when the loop does, in a palette colour. */
function loopLights(seed: number) {
  const r = randomSource(seed);
  const palette = r.pick(PALETTES);
  const count = 7;
  const lights = Array.from({ length: count }, (_, i) => {
    // Whole turns per loop, so every path closes; the reach varies from light to light.
    const turnX = r.pick([1, -1, 2]);
    const turnY = r.pick([1, 2, 3]);
    const reach = r.between(180, 330);
    return {
      colour: 1 + (i % (palette.length - 1)),
      radius: 240 + 50 * (i % 3),
      /** Where the light is at `t` (0–1 of the loop), on a 1000 x 1000 canvas. */
      at: (t: number) => {
        const a = 2 * Math.PI * (t + i / count);
        return { x: 500 + reach * Math.cos(turnX * a), y: 500 + reach * Math.sin(turnY * a) };
      },
    };
  });
  return { palette, lights };
}

/** The frames of a loop: soft coloured lights drifting over a dark ground. */
function loopFrames(seed: number): string[] {
  const { palette, lights } = loopLights(seed);
  const gradients = palette
    .map(
      (colour, i) =>
        `<radialGradient id="g${i}"><stop offset="0" stop-color="${colour}" stop-opacity="0.9"/><stop offset="1" stop-color="${colour}" stop-opacity="0"/></radialGradient>`,
    )
    .join("");
  return Array.from({ length: LOOP_FRAMES }, (_, frame) => {
    const circles = lights
      .map((light) => {
        const { x, y } = light.at(frame / LOOP_FRAMES);
        return `<circle cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="${light.radius}" fill="url(#g${light.colour})"/>`;
      })
      .join("");
    return `<svg xmlns="http://www.w3.org/2000/svg" width="${LOOP_SIZE}" height="${LOOP_SIZE}" viewBox="0 0 1000 1000"><defs>${gradients}</defs><rect width="1000" height="1000" fill="${palette[0]}"/>${circles}</svg>`;
  });
}

/**
 * A loop's poster, as the mint page's browser would capture it: its first frame as a PNG (the server draws no
 * video frames; the demo draws the same SVG).
 */
export async function drawLoopPoster(seed: number): Promise<Buffer> {
  return sharp(Buffer.from(loopFrames(seed)[0] as string))
    .png()
    .toBuffer();
}

/** The VP8 key frame inside a lossy WebP file (its `VP8 ` chunk). */
function vp8Frame(webp: Buffer): Uint8Array {
  for (let at = 12; at + 8 <= webp.length; ) {
    const id = webp.toString("latin1", at, at + 4);
    const size = webp.readUInt32LE(at + 4);
    if (id === "VP8 ") return new Uint8Array(webp.subarray(at + 8, at + 8 + size));
    at += 8 + size + (size & 1);
  }
  throw new Error("demo: sharp wrote a WebP without a VP8 frame");
}

/** A 4-second, 480 x 480 looping WebM (VP8, 12 frames a second). */
export async function drawLoop(seed: number): Promise<Buffer> {
  const frames = await Promise.all(
    loopFrames(seed).map(async (markup) =>
      vp8Frame(await sharp(Buffer.from(markup)).removeAlpha().webp({ quality: 80 }).toBuffer()),
    ),
  );
  const output = new Output({ format: new WebMOutputFormat(), target: new BufferTarget() });
  const source = new EncodedVideoPacketSource("vp8");
  output.addVideoTrack(source, { frameRate: LOOP_FPS });
  await output.start();
  const decoderConfig = { codec: "vp8", codedWidth: LOOP_SIZE, codedHeight: LOOP_SIZE };
  for (const [n, frame] of frames.entries())
    await source.add(
      new EncodedPacket(frame, "key", n / LOOP_FPS, 1 / LOOP_FPS),
      n === 0 ? { decoderConfig } : undefined,
    );
  await output.finalize();
  const { buffer } = output.target as BufferTarget;
  if (!buffer) throw new Error("demo: the loop's WebM was not written");
  return Buffer.from(buffer);
}

// --- PDF --------------------------------------------------------------------------------------------

const A5 = { width: 420, height: 595 };

const rgb = (hex: string) =>
  [1, 3, 5].map((at) => (Number.parseInt(hex.slice(at, at + 2), 16) / 255).toFixed(3)).join(" ");

/** A circle as four Bézier quarters (PDF has no circle operator). */
function circle(x: number, y: number, radius: number) {
  const k = radius * 0.5523;
  const n = (v: number) => v.toFixed(1);
  return [
    `${n(x + radius)} ${n(y)} m`,
    `${n(x + radius)} ${n(y + k)} ${n(x + k)} ${n(y + radius)} ${n(x)} ${n(y + radius)} c`,
    `${n(x - k)} ${n(y + radius)} ${n(x - radius)} ${n(y + k)} ${n(x - radius)} ${n(y)} c`,
    `${n(x - radius)} ${n(y - k)} ${n(x - k)} ${n(y - radius)} ${n(x)} ${n(y - radius)} c`,
    `${n(x + k)} ${n(y - radius)} ${n(x + radius)} ${n(y - k)} ${n(x + radius)} ${n(y)} c`,
  ].join("\n");
}

/** Text for a PDF string literal: backslashes and parentheses escaped, ASCII only. */
const pdfText = (text: string) => text.replace(/[^\x20-\x7E]/g, "-").replace(/[\\()]/g, "\\$&");

/** One page of the sketchbook: some of the loop's light paths drawn as pencil lines, a dot where each starts. */
function sketchPage(seed: number, page: number, pages: number, title: string) {
  const { palette, lights } = loopLights(seed);
  const scale = 0.34;
  const ox = A5.width / 2 - 500 * scale;
  const oy = A5.height / 2 - 500 * scale + 20;
  // PDF's y axis points up; the canvas's points down.
  const onPage = (p: { x: number; y: number }) => ({ x: ox + p.x * scale, y: oy + (1000 - p.y) * scale });
  const ops: string[] = ["0.98 0.97 0.94 rg", `0 0 ${A5.width} ${A5.height} re f`, "1.1 w"];
  for (const light of lights.filter((_, i) => i % pages === page - 1)) {
    const colour = rgb(palette[light.colour] as string);
    const path = Array.from({ length: 97 }, (_, step) => {
      const { x, y } = onPage(light.at(step / 96));
      return `${x.toFixed(1)} ${y.toFixed(1)} ${step === 0 ? "m" : "l"}`;
    });
    const start = onPage(light.at(0));
    ops.push(`${colour} RG`, ...path, "S", `${colour} rg`, circle(start.x, start.y, 5), "f");
  }
  ops.push(
    "0.1 0.1 0.1 rg",
    `BT /F1 16 Tf 36 ${A5.height - 54} Td (${pdfText(title)}) Tj ET`,
    `BT /F1 9 Tf 36 40 Td (Light paths, sheet ${page} of ${pages}) Tj ET`,
  );
  return ops.join("\n");
}

/**
 * The sketchbook's first page as a PNG (as pdf.js draws it in the mint page): the same paths, dots and title
 * as `sketchPage`, written as SVG (whose y axis points down, like the canvas's).
 */
export async function drawSketchbookPoster(seed: number, title: string, pages = 3): Promise<Buffer> {
  const { palette, lights } = loopLights(seed);
  const scale = 0.34;
  const ox = A5.width / 2 - 500 * scale;
  const oy = A5.height / 2 - 500 * scale - 20;
  const onPage = (p: { x: number; y: number }) => ({ x: ox + p.x * scale, y: oy + p.y * scale });
  const shapes = lights
    .filter((_, i) => i % pages === 0)
    .map((light) => {
      const colour = palette[light.colour] as string;
      const path = Array.from({ length: 97 }, (_, step) => {
        const { x, y } = onPage(light.at(step / 96));
        return `${step === 0 ? "M" : "L"}${x.toFixed(1)} ${y.toFixed(1)}`;
      }).join(" ");
      const start = onPage(light.at(0));
      return `<path d="${path}" fill="none" stroke="${colour}" stroke-width="1.1"/><circle cx="${start.x.toFixed(1)}" cy="${start.y.toFixed(1)}" r="5" fill="${colour}"/>`;
    })
    .join("");
  const svgText = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;");
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${A5.width}" height="${A5.height}"><rect width="100%" height="100%" fill="#faf7f0"/>${shapes}<text x="36" y="54" font-family="Helvetica, Arial, sans-serif" font-size="16" fill="#1a1a1a">${svgText(title)}</text><text x="36" y="${A5.height - 40}" font-family="Helvetica, Arial, sans-serif" font-size="9" fill="#1a1a1a">Light paths, sheet 1 of ${pages}</text></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** A small A5 PDF sketchbook of `pages` sheets: the paths of the loop drawn from the same `seed`. */
export function drawSketchbook(seed: number, title: string, pages = 3): Buffer {
  const objects: string[] = [];
  const add = (body: string) => objects.push(body) + 2; // object numbers start at 3 (1: catalog, 2: pages)
  const font = add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>");
  const kids: number[] = [];
  for (let page = 1; page <= pages; page++) {
    const content = sketchPage(seed, page, pages, title);
    const stream = add(
      `<< /Length ${Buffer.byteLength(content, "latin1")} >>\nstream\n${content}\nendstream`,
    );
    kids.push(
      add(
        `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${A5.width} ${A5.height}] /Resources << /Font << /F1 ${font} 0 R >> >> /Contents ${stream} 0 R >>`,
      ),
    );
  }
  const all = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    `<< /Type /Pages /Kids [${kids.map((kid) => `${kid} 0 R`).join(" ")}] /Count ${pages} >>`,
    ...objects,
  ];
  let pdf = "%PDF-1.4\n";
  const offsets = all.map((body, i) => {
    const offset = Buffer.byteLength(pdf, "latin1");
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
    return offset;
  });
  const xref = Buffer.byteLength(pdf, "latin1");
  pdf += `xref\n0 ${all.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) pdf += `${String(offset).padStart(10, "0")} 00000 n \n`;
  pdf += `trailer\n<< /Size ${all.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, "latin1");
}

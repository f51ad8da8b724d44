/**
 * Artworks, avatars and banners for the demo marketplace, drawn here from a seed number (no downloaded or
 * borrowed images): each style is an SVG rendered to JPEG by sharp, so the same seed always gives the same
 * picture and every upload goes through the API's real image checks.
 */
import sharp from "sharp";

/** A small deterministic random source (mulberry32): the same seed draws the same artwork. */
export function randomSource(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  return {
    next,
    between: (min: number, max: number) => min + next() * (max - min),
    int: (min: number, max: number) => Math.floor(min + next() * (max - min + 1)),
    pick: <T>(list: readonly T[]) => list[Math.floor(next() * list.length)] as T,
  };
}
type Random = ReturnType<typeof randomSource>;

export const PALETTES = [
  ["#0b132b", "#1c2541", "#3a506b", "#5bc0be", "#f0f3bd"],
  ["#2b2d42", "#8d99ae", "#edf2f4", "#ef233c", "#d90429"],
  ["#264653", "#2a9d8f", "#e9c46a", "#f4a261", "#e76f51"],
  ["#f72585", "#7209b7", "#3a0ca3", "#4361ee", "#4cc9f0"],
  ["#fefae0", "#dda15e", "#bc6c25", "#606c38", "#283618"],
  ["#001219", "#005f73", "#0a9396", "#94d2bd", "#ee9b00"],
  ["#ffcdb2", "#ffb4a2", "#e5989b", "#b5838d", "#6d6875"],
  ["#10002b", "#3c096c", "#7b2cbf", "#c77dff", "#e0aaff"],
] as const;

export type ArtStyle = "painting" | "photo" | "generative" | "abstract" | "pixel" | "iso" | "illustration";

const W = 1000;

/** Soft, blurred layers of colour, like wet paint. */
function painting(r: Random, p: readonly string[]) {
  const blobs = Array.from({ length: 14 }, () => {
    const rx = r.between(120, 380);
    return `<ellipse cx="${r.int(0, W)}" cy="${r.int(0, W)}" rx="${rx}" ry="${rx * r.between(0.4, 1)}" fill="${r.pick(p)}" opacity="${r.between(0.45, 0.9).toFixed(2)}" transform="rotate(${r.int(0, 180)} 500 500)"/>`;
  }).join("");
  return `<rect width="${W}" height="${W}" fill="${p[0]}"/><g filter="url(#soft)">${blobs}</g>`;
}

/** A landscape at a chosen hour: sky gradient, sun, layered ridges. */
function photo(r: Random, p: readonly string[]) {
  const ridges = Array.from({ length: 4 }, (_, i) => {
    const base = 520 + i * 110;
    let d = `M0 ${base}`;
    for (let x = 0; x <= W; x += 50) d += ` L${x} ${base - r.between(0, 140 - i * 25)}`;
    return `<path d="${d} L${W} ${W} L0 ${W} Z" fill="${p[Math.min(4, i + 1)]}" opacity="${0.75 + i * 0.08}"/>`;
  }).join("");
  return `<defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${p[0]}"/><stop offset="1" stop-color="${p[3]}"/></linearGradient></defs>
    <rect width="${W}" height="${W}" fill="url(#sky)"/>
    <circle cx="${r.int(200, 800)}" cy="${r.int(250, 450)}" r="${r.int(60, 130)}" fill="${p[4]}" filter="url(#soft)"/>${ridges}`;
}

/** Truchet tiles: quarter circles turned at random make endless paths. */
function generative(r: Random, p: readonly string[]) {
  const n = r.pick([8, 10, 12, 16]);
  const s = W / n;
  let tiles = "";
  for (let y = 0; y < n; y++)
    for (let x = 0; x < n; x++) {
      const turn = r.next() < 0.5 ? 0 : 90;
      tiles += `<g transform="translate(${x * s} ${y * s}) rotate(${turn} ${s / 2} ${s / 2})"><path d="M${s / 2} 0 A${s / 2} ${s / 2} 0 0 1 0 ${s / 2} M${s} ${s / 2} A${s / 2} ${s / 2} 0 0 0 ${s / 2} ${s}" fill="none" stroke="${r.pick(p.slice(2))}" stroke-width="${s / 6}" stroke-linecap="round"/></g>`;
    }
  return `<rect width="${W}" height="${W}" fill="${p[0]}"/>${tiles}`;
}

/** Rectangles split again and again, some filled with colour. */
function abstract(r: Random, p: readonly string[]) {
  const rects: string[] = [];
  const split = (x: number, y: number, w: number, h: number, depth: number) => {
    if (depth > 4 || (depth > 1 && r.next() < 0.25) || w < 120 || h < 120) {
      const fill = r.next() < 0.4 ? r.pick(p.slice(1)) : "#f4f1ea";
      rects.push(
        `<rect x="${x}" y="${y}" width="${w}" height="${h}" fill="${fill}" stroke="#111" stroke-width="12"/>`,
      );
      return;
    }
    if (w > h) {
      const cut = Math.round(w * r.between(0.3, 0.7));
      split(x, y, cut, h, depth + 1);
      split(x + cut, y, w - cut, h, depth + 1);
    } else {
      const cut = Math.round(h * r.between(0.3, 0.7));
      split(x, y, w, cut, depth + 1);
      split(x, y + cut, w, h - cut, depth + 1);
    }
  };
  split(0, 0, W, W, 0);
  return rects.join("");
}

/** A mirrored 12x12 sprite on a plain ground. */
function pixel(r: Random, p: readonly string[]) {
  const n = 12;
  const cell = 60;
  const offset = (W - n * cell) / 2;
  let cells = `<rect width="${W}" height="${W}" fill="${p[0]}"/>`;
  for (let y = 0; y < n; y++)
    for (let x = 0; x < n / 2; x++) {
      if (r.next() < 0.45) continue;
      const fill = r.pick(p.slice(1));
      for (const cx of [x, n - 1 - x])
        cells += `<rect x="${offset + cx * cell}" y="${offset + y * cell}" width="${cell}" height="${cell}" fill="${fill}"/>`;
    }
  return cells;
}

/** Isometric blocks stacked on a floor. */
function iso(r: Random, p: readonly string[]) {
  const s = 70;
  const h = s * 0.577;
  let blocks = `<rect width="${W}" height="${W}" fill="${p[0]}"/>`;
  for (let row = 0; row < 7; row++)
    for (let col = 0; col < 7; col++) {
      const stack = r.int(0, 4);
      for (let z = 0; z < stack; z++) {
        const cx = 500 + (col - row) * s;
        const cy = 330 + (col + row) * h - z * s * 0.8;
        const top = `M${cx} ${cy - h} L${cx + s} ${cy} L${cx} ${cy + h} L${cx - s} ${cy} Z`;
        const left = `M${cx - s} ${cy} L${cx} ${cy + h} L${cx} ${cy + h + s * 0.8} L${cx - s} ${cy + s * 0.8} Z`;
        const right = `M${cx + s} ${cy} L${cx} ${cy + h} L${cx} ${cy + h + s * 0.8} L${cx + s} ${cy + s * 0.8} Z`;
        blocks += `<path d="${top}" fill="${p[4]}"/><path d="${left}" fill="${p[2]}"/><path d="${right}" fill="${p[3]}"/>`;
      }
    }
  return blocks;
}

/** Flat overlapping shapes with a paper texture of dots. */
function illustration(r: Random, p: readonly string[]) {
  const shapes = Array.from({ length: 9 }, () => {
    const x = r.int(100, 900);
    const y = r.int(100, 900);
    const size = r.int(80, 260);
    return r.next() < 0.5
      ? `<circle cx="${x}" cy="${y}" r="${size}" fill="${r.pick(p.slice(1))}"/>`
      : `<polygon points="${x},${y - size} ${x + size},${y + size} ${x - size},${y + size}" fill="${r.pick(p.slice(1))}"/>`;
  }).join("");
  return `<defs><pattern id="dots" width="18" height="18" patternUnits="userSpaceOnUse"><circle cx="3" cy="3" r="2" fill="#000" opacity="0.12"/></pattern></defs>
    <rect width="${W}" height="${W}" fill="${p[0]}"/>${shapes}<rect width="${W}" height="${W}" fill="url(#dots)"/>`;
}

const STYLES: Record<ArtStyle, (r: Random, p: readonly string[]) => string> = {
  painting,
  photo,
  generative,
  abstract,
  pixel,
  iso,
  illustration,
};

const svg = (width: number, height: number, body: string, viewBox = `0 0 ${W} ${W}`) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="${viewBox}" preserveAspectRatio="xMidYMid slice">
    <defs><filter id="soft"><feGaussianBlur stdDeviation="28"/></filter></defs>${body}</svg>`;

const jpeg = (markup: string) => sharp(Buffer.from(markup)).jpeg({ quality: 86, mozjpeg: false }).toBuffer();

/** A 1000 x 1000 artwork in `style`. */
export function drawArtwork(style: ArtStyle, seed: number): Promise<Buffer> {
  const r = randomSource(seed);
  return jpeg(svg(W, W, STYLES[style](r, r.pick(PALETTES))));
}

/** A square avatar: a soft portrait-like disc on a gradient. */
export function drawAvatar(seed: number): Promise<Buffer> {
  const r = randomSource(seed);
  const p = r.pick(PALETTES);
  return jpeg(
    svg(
      400,
      400,
      `<rect width="${W}" height="${W}" fill="${p[1]}"/><circle cx="500" cy="420" r="190" fill="${p[3]}"/><ellipse cx="500" cy="1000" rx="360" ry="330" fill="${p[4]}"/><g filter="url(#soft)"><circle cx="${r.int(200, 800)}" cy="${r.int(100, 300)}" r="160" fill="${p[2]}" opacity="0.6"/></g>`,
    ),
  );
}

/** A 2.4:1 banner (the ratio the profile and collection pages show) in `style`. */
export function drawBanner(style: ArtStyle, seed: number): Promise<Buffer> {
  const r = randomSource(seed);
  return jpeg(svg(1440, 600, STYLES[style](r, r.pick(PALETTES)), `0 ${500 - 500 / 2.4} ${W} ${W / 2.4}`));
}

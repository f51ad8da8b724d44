/**
 * Who the demo marketplace is made of: anvil's public test accounts (0 is the platform's admin and
 * moderator, 9 the voucher signer), given names, and the collections the artists make.
 */
import type { ArtStyle } from "./art.ts";

export type DemoPerson = { index: number; name: string; username: string; bio: string; banner: ArtStyle };

export const MODERATOR: DemoPerson = {
  index: 0,
  name: "Easel Moderation",
  username: "easel_moderation",
  bio: "The moderators of this local Easel. Reports, artist applications and bans land here.",
  banner: "abstract",
};

export const ARTISTS: DemoPerson[] = [
  {
    index: 1,
    name: "Mira Okafor",
    username: "mira_okafor",
    bio: "Painter of weather and memory. Layers of colour, built slowly, then left to dry in the light.",
    banner: "painting",
  },
  {
    index: 2,
    name: "Tomas Lindqvist",
    username: "tomas_lindqvist",
    bio: "Landscapes at the edge of the day, and small programs that draw lines until they find a shape.",
    banner: "photo",
  },
  {
    index: 3,
    name: "Ayaka Sato",
    username: "ayaka_sato",
    bio: "Pixel guardians and block towns. Everything here was placed one square at a time.",
    banner: "iso",
  },
];

export const COLLECTORS: DemoPerson[] = [
  {
    index: 4,
    name: "Jonah Reyes",
    username: "jonah_reyes",
    bio: "Collector. Mostly generative work, and anything with a horizon in it.",
    banner: "generative",
  },
  {
    index: 5,
    name: "Priya Natarajan",
    username: "priya_n",
    bio: "Buying what I would hang at home. Abstracts, pixels, the odd landscape.",
    banner: "illustration",
  },
  {
    index: 6,
    name: "Lena Fischer",
    username: "lena_fischer",
    bio: "Architect by day. Collects isometric work and quiet paintings.",
    banner: "abstract",
  },
  {
    index: 7,
    name: "Omar Haddad",
    username: "omar_haddad",
    bio: "Early supporter of new artists. Always bidding on the last day.",
    banner: "pixel",
  },
  {
    index: 8,
    name: "Sam Carter",
    username: "sam_carter",
    bio: "New here. Learning what I like by making offers.",
    banner: "photo",
  },
];

export type DemoCollection = {
  artist: number;
  name: string;
  symbol: string;
  category: string;
  style: ArtStyle;
  description: string;
  items: string[];
  /** Items that are not pictures: a looping WebM video or a PDF sketchbook (see `media.ts`). */
  media?: Record<number, "video" | "pdf">;
};

/**
 * Two standard collections per artist, six artworks each, then moving pieces with their sketchbook; the order
 * matters to the seed's story.
 */
export const COLLECTIONS: DemoCollection[] = [
  {
    artist: 1,
    name: "Weather Rooms",
    symbol: "WRM",
    category: "Painting",
    style: "painting",
    description: "Rooms painted from the weather outside their windows: rain, fog, the last warm light.",
    items: ["Rain on Glass", "Late Tide", "Morning Fog", "Ochre Field", "Salt Wind", "Low Cloud"],
  },
  {
    artist: 2,
    name: "Northern Hours",
    symbol: "NHRS",
    category: "Photography",
    style: "photo",
    description: "The same ridge line at every hour the sun allows in a northern summer.",
    items: ["First Light", "Blue Hour", "High Noon", "Red Ridge", "Dusk Line", "Midnight Sun"],
  },
  {
    artist: 3,
    name: "Tiny Guardians",
    symbol: "TINY",
    category: "Pixel Art",
    style: "pixel",
    description: "Twelve by twelve pixels, mirrored: small keepers of doors, gardens and late trains.",
    items: ["Keeper of Keys", "Garden Warden", "Night Train", "Lantern", "Moss Knight", "Tide Watcher"],
  },
  {
    artist: 1,
    name: "Quiet Geometry",
    symbol: "QGEO",
    category: "Abstract",
    style: "abstract",
    description: "Rectangles divided until they rest. Primary colours, black lines, a lot of white.",
    items: ["Balance I", "Balance II", "Two Rooms", "Open Plan", "Ledger", "Courtyard"],
  },
  {
    artist: 2,
    name: "Loops and Lines",
    symbol: "LOOP",
    category: "Generative",
    style: "generative",
    description: "Truchet tiles turned by a seeded coin: every path closes, none of them the same.",
    items: ["Loop 01", "Loop 02", "Loop 03", "Loop 04", "Loop 05", "Loop 06"],
  },
  {
    artist: 3,
    name: "Block Towns",
    symbol: "BLOK",
    category: "3D",
    style: "iso",
    description: "Isometric towns stacked block by block, seen from the hill above.",
    items: ["Harbour Town", "Hill Town", "Old Quarter", "Market Square", "New Build", "Ring Road"],
  },
  {
    artist: 2,
    name: "Night Drift",
    symbol: "DRFT",
    category: "Animation",
    style: "painting",
    description: "Lights drifting on closed paths, four seconds a loop, and a sketchbook of such paths.",
    items: ["Drift I", "Drift II", "Drift Notes"],
    media: { 0: "video", 1: "video", 2: "pdf" },
  },
];

/** The lazy collection: listed at a price, minted only when someone buys. */
export const LAZY_COLLECTION: DemoCollection = {
  artist: 1,
  name: "Open Studio",
  symbol: "OPEN",
  category: "Illustration",
  style: "illustration",
  description: "Studio sketches, minted only when they find a home.",
  items: ["Sketch for a Kite", "Three Hills", "Paper Moon", "The Visitor", "Pink Triangle"],
};

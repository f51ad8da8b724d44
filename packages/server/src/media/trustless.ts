import { headerLength, createWriter as headerWriter, close as writeHeader } from "@ipld/car/buffer-writer";
import { varint } from "multiformats";
import { CID } from "multiformats/cid";
import type { Block, DagSelection } from "./store.ts";

/**
 * The IPFS Trustless Gateway answers of `/ipfs/{cid}` (https://specs.ipfs.tech/http-gateways/trustless-gateway/):
 * a raw block or a CAR of a file's DAG, which a client checks against the CID without trusting us.
 */

export const RAW_TYPE = "application/vnd.ipld.raw";
export const CAR_TYPE = "application/vnd.ipld.car";

/** The empty identity CID that clients probe a trustless gateway with. */
export const PROBE_CID = "bafkqaaa";

/** What the client asked for: the file itself (a plain HTTP client), a block, or a CAR. */
export type Wanted =
  | { format: "file" }
  | { format: "raw" }
  | ({ format: "car"; fromAccept: boolean } & DagSelection)
  | { format: "unsupported"; status: 400 | 406; message: string };

type Query = Record<string, string | undefined>;

/** One media range of an `Accept` header: its type and parameters, q included. */
function mediaRanges(accept: string): { type: string; params: Map<string, string> }[] {
  return accept
    .split(",")
    .map((part) => {
      const [type = "", ...rest] = part.split(";").map((piece) => piece.trim());
      const params = new Map(
        rest.map((piece) => {
          const [key = "", value = ""] = piece.split("=").map((side) => side.trim().replace(/^"|"$/g, ""));
          return [key.toLowerCase(), value.toLowerCase()];
        }),
      );
      return { type: type.toLowerCase(), params };
    })
    .filter((range) => range.type && range.params.get("q") !== "0")
    .sort((a, b) => Number(b.params.get("q") ?? 1) - Number(a.params.get("q") ?? 1));
}

/**
 * Reads the format from `?format=` (which wins, as the spec says) or `Accept`, and the CAR's parameters from the
 * query (`dag-scope`, `entity-bytes`, `car-version`, `car-order`, `car-dups`) or the `Accept` type's parameters.
 * We write CARv1 in depth-first order; a client asking for another version or order is answered 406.
 */
export function wantedFormat(query: Query, accept: string | undefined): Wanted {
  const ranges = mediaRanges(accept ?? "");
  const carRanges = ranges.filter((range) => range.type === CAR_TYPE);
  const first = ranges.find((range) => range.type === RAW_TYPE || range.type === CAR_TYPE);
  let format: string;
  if (query.format !== undefined) format = query.format;
  else if (first) format = first.type === RAW_TYPE ? "raw" : "car";
  else if (ranges.length && ranges.every((range) => /^application\/vnd\.(ipld|ipfs)\./.test(range.type)))
    return { format: "unsupported", status: 406, message: "Only raw blocks and CARs are served here." };
  else return { format: "file" };
  if (format === "raw") return { format: "raw" };
  if (format !== "car")
    return {
      format: "unsupported",
      status: 400,
      message: `Unsupported format '${format}': use raw or car.`,
    };

  // The first CAR variant of the Accept header we can write, else its parameters as asked.
  const acceptable = carRanges.find(
    (range) =>
      ["1", undefined].includes(range.params.get("version")) &&
      ["dfs", "unk", undefined].includes(range.params.get("order")) &&
      ["y", "n", undefined].includes(range.params.get("dups")),
  );
  if (carRanges.length && !acceptable && query.format === undefined)
    return { format: "unsupported", status: 406, message: "Only CARv1 in depth-first order is served here." };
  const version = query["car-version"] ?? acceptable?.params.get("version") ?? "1";
  const order = query["car-order"] ?? acceptable?.params.get("order") ?? "dfs";
  const dups = query["car-dups"] ?? acceptable?.params.get("dups") ?? "n";
  if (version !== "1" || !["dfs", "unk"].includes(order) || !["y", "n"].includes(dups))
    return { format: "unsupported", status: 406, message: "Only CARv1 in depth-first order is served here." };

  const scope = query["dag-scope"] ?? "all";
  if (scope !== "block" && scope !== "entity" && scope !== "all")
    return { format: "unsupported", status: 400, message: "dag-scope must be block, entity or all." };
  let range: DagSelection["range"] = null;
  const bytes = query["entity-bytes"];
  if (bytes !== undefined) {
    const match = /^(-?\d{1,15}):(-?\d{1,15}|\*)$/.exec(bytes);
    if (!match) return { format: "unsupported", status: 400, message: "entity-bytes must be from:to." };
    range = { from: Number(match[1]), to: match[2] === "*" ? Number.POSITIVE_INFINITY : Number(match[2]) };
  }
  return {
    format: "car",
    fromAccept: query.format === undefined,
    scope: range ? "entity" : scope,
    range,
    dups: dups === "y",
  };
}

/** Resolves `entity-bytes` against the file's size: negative ends count from the end, both ends inclusive. */
export function resolveRange(
  range: { from: number; to: number },
  size: number,
): { from: number; to: number } | null {
  const from = range.from < 0 ? Math.max(0, size + range.from) : range.from;
  const to = range.to < 0 ? size + range.to : Math.min(range.to, size - 1);
  return from > to || from >= size ? null : { from, to };
}

/** The CAR's `Content-Type`, with every parameter we know (the spec asks for them all). */
export const carContentType = (dups: boolean) =>
  `${CAR_TYPE}; version=1; order=dfs; dups=${dups ? "y" : "n"}`;

/** The CAR's `Etag`: the CID, and everything that changes which blocks the CAR carries and how. */
export function carEtag(cid: string, wanted: DagSelection): string {
  const range = wanted.range ? `.${wanted.range.from}-${wanted.range.to}` : "";
  return `"${cid}.car.v1.dfs.dups-${wanted.dups ? "y" : "n"}.${wanted.scope}${range}"`;
}

/** A CARv1 stream: its header naming the root, then each block as varint(length) ‖ CID ‖ bytes. */
export async function* carStream(root: CID, blocks: AsyncIterable<Block>): AsyncGenerator<Uint8Array> {
  const roots = [root];
  yield writeHeader(headerWriter(new ArrayBuffer(headerLength({ roots })), { roots }));
  for await (const { cid, bytes } of blocks) {
    const length = cid.bytes.length + bytes.length;
    const frame = new Uint8Array(varint.encodingLength(length) + length);
    varint.encodeTo(length, frame);
    frame.set(cid.bytes, varint.encodingLength(length));
    frame.set(bytes, varint.encodingLength(length) + cid.bytes.length);
    yield frame;
  }
}

/** The probe CID, parsed once. */
export const probeCid = CID.parse(PROBE_CID);

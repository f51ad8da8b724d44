import { Readable } from "node:stream";
import { eq } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { itemMetadata, media } from "../db/schema.ts";
import { MediaStore } from "../media/store.ts";
import {
  carContentType,
  carEtag,
  carStream,
  PROBE_CID,
  probeCid,
  RAW_TYPE,
  resolveRange,
  wantedFormat,
} from "../media/trustless.ts";

/** What the spec asks of every immutable `/ipfs/` answer: cached for a year by everyone. */
const IMMUTABLE = "public, max-age=29030400, immutable";

/**
 * `/ipfs/` requests a minute per client address, counted in PostgreSQL like every route limit. A page of art
 * cards loads dozens of thumbnails and avatars (about 100 for an explore page of 48 cards), and a browser keeps
 * every answer (immutable), so 600 is six pages of new pictures a minute for a household behind one address,
 * or a Helia client fetching a few 50 MB files block by block (about 200 blocks each). Each answer costs at most
 * the file it names, so the limit bounds what one address can make the gateway read and send.
 */
export const IPFS_REQUESTS_PER_MINUTE = 600;

/**
 * `GET /ipfs/:cid`: our IPFS gateway for the media store. Content never changes for a CID, so it is
 * cached forever. A plain request gets the file: its type comes from what the uploader detected in the
 * bytes; anything else is served as a download, and a sandbox CSP stops a stored file from running scripts
 * on our origin. `?format=raw` / `?format=car` (or the `Accept` equivalents) make it a Trustless Gateway:
 * a block or the file's whole DAG as a CAR, which anyone checks against the CID without trusting us.
 */
export const mediaRoutes: FastifyPluginAsyncZod = async (app) => {
  const { config, db } = app.deps;
  // On its own origin (MEDIA_PUBLIC_URL), media is framed by the site (a PDF opens in a frame): the site may
  // frame it, nobody else.
  const policy = `default-src 'none'; img-src 'self'; sandbox${config.mediaPublicUrl ? `; frame-ancestors ${config.publicUrl.origin}` : ""}`;
  // With a media origin, the site's own `/ipfs/` serves nothing: a user's file opened there (a PDF, a video
  // followed by HTML) would run beside the session. The media origin's proxy forwards to the same API under
  // another Host, and is served; the site's address is sent there, path and query kept.
  const mediaHost = config.mediaPublicUrl ? new URL(config.mediaPublicUrl).host : null;
  const redirectsToMedia = (host: string) =>
    mediaHost !== null && mediaHost !== config.publicUrl.host && host.toLowerCase() === config.publicUrl.host;
  // Files added before the store recorded its dag-pb nodes are found by the CIDs the database names.
  app.media.recognizeRoots(async (cid) => {
    const [upload] = await db.select({ cid: media.cid }).from(media).where(eq(media.cid, cid)).limit(1);
    if (upload) return true;
    const [metadata] = await db
      .select({ cid: itemMetadata.cid })
      .from(itemMetadata)
      .where(eq(itemMetadata.cid, cid))
      .limit(1);
    return metadata !== undefined;
  });
  app.get(
    "/ipfs/:cid",
    {
      config: { rateLimit: { max: IPFS_REQUESTS_PER_MINUTE, timeWindow: "1 minute" } },
      schema: {
        summary: "Media by IPFS CID (a file, or a verifiable raw block or CAR)",
        params: z.object({ cid: z.string().max(200) }),
        querystring: z.object({
          format: z.string().max(20).optional(),
          "dag-scope": z.string().max(20).optional(),
          "entity-bytes": z.string().max(40).optional(),
          "car-version": z.string().max(5).optional(),
          "car-order": z.string().max(5).optional(),
          "car-dups": z.string().max(5).optional(),
        }),
      },
    },
    async (request, reply) => {
      // Readable from any origin, as the answers it leads to: a browser follows a CORS request's redirect only then.
      if (redirectsToMedia(request.host))
        return reply
          .header("cache-control", "public, max-age=3600")
          .header("access-control-allow-origin", "*")
          .redirect(`${config.mediaPublicUrl}${request.url}`, 308);
      // A client that hangs up stops the walk before the next block is read.
      const hangUp = new AbortController();
      reply.raw.on("close", () => hangUp.abort());
      const notFound = () =>
        reply
          .status(404)
          .send({ error: { code: "not_found", message: "No such content in the media store." } });
      const wanted = wantedFormat(request.query, request.headers.accept);
      reply
        .header("vary", "Accept")
        .header("x-content-type-options", "nosniff")
        .header("cross-origin-resource-policy", "cross-origin");
      if (wanted.format === "unsupported")
        return reply
          .status(wanted.status)
          .send({ error: { code: "unsupported_format", message: wanted.message } });
      const id = request.params.cid;
      const probe = id === PROBE_CID && wanted.format !== "file";
      const cid = probe ? probeCid : MediaStore.parseCid(id);
      if (!cid) return notFound();
      const onlyIfCached = /only-if-cached/i.test(request.headers["cache-control"] ?? "");

      if (wanted.format === "raw") {
        const bytes = probe ? new Uint8Array() : await app.media.block(cid);
        if (!bytes) return onlyIfCached ? reply.status(412).send() : notFound();
        const etag = `"${id}.raw"`;
        trustless(reply, id, etag, `${id}.bin`).type(RAW_TYPE);
        if (request.headers["if-none-match"] === etag) return reply.status(304).send();
        reply.header("content-length", bytes.length);
        return reply.send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length));
      }

      if (wanted.format === "car") {
        // The root block must be here before we answer 200: a missing block below it ends the stream early.
        const size = probe ? 0 : await app.media.fileSize(cid);
        if (size === null) return onlyIfCached ? reply.status(412).send() : notFound();
        let selection: typeof wanted = wanted;
        if (wanted.range) {
          const range = resolveRange(wanted.range, size);
          // A range wholly outside the file gets the root block, which says how long the file is.
          selection = range ? { ...wanted, range } : { ...wanted, scope: "block", range: null };
        }
        const etag = carEtag(id, selection);
        trustless(reply, id, etag, `${id}.car`).type(carContentType(selection.dups));
        if (wanted.fromAccept) reply.header("content-location", `/ipfs/${id}?format=car`);
        if (request.headers["if-none-match"] === etag) return reply.status(304).send();
        const blocks = probe
          ? noBlocks()
          : app.media.blocks(cid, selection, { fileSize: size, signal: hangUp.signal });
        return reply.send(Readable.from(untilHangUp(carStream(cid, blocks), hangUp.signal)));
      }

      const file = await app.media.read(cid, hangUp.signal);
      if (!file) return notFound();
      const [row] = await app.deps.db
        .select({ mime: media.mime })
        .from(media)
        .where(eq(media.cid, id))
        .limit(1);
      const etag = `"${cid.toString()}"`;
      reply
        .header("cache-control", IMMUTABLE)
        .header("etag", etag)
        .header("x-content-type-options", "nosniff")
        .header("content-security-policy", policy)
        .header("cross-origin-resource-policy", "cross-origin");
      // Helmet's X-Frame-Options (same origin only) would keep the site from framing it; the policy says who may.
      if (config.mediaPublicUrl) reply.raw.removeHeader("x-frame-options");
      if (request.headers["if-none-match"] === etag) return reply.status(304).send();
      if (row) reply.type(row.mime);
      else reply.type("application/octet-stream").header("content-disposition", "attachment");
      reply.header("content-length", file.size);
      return reply.send(Readable.from(untilHangUp(file.content, hangUp.signal)));
    },
  );
};

/**
 * The headers every trustless answer carries: cached forever, a download rather than a page, readable from
 * any origin (the bytes prove themselves), and the path and root as the spec names them.
 */
function trustless<R extends { header(name: string, value: string): R }>(
  reply: R,
  cid: string,
  etag: string,
  filename: string,
): R {
  return reply
    .header("cache-control", IMMUTABLE)
    .header("etag", etag)
    .header("content-disposition", `attachment; filename="${filename}"`)
    .header("access-control-allow-origin", "*")
    .header("x-ipfs-path", `/ipfs/${cid}`)
    .header("x-ipfs-roots", cid);
}

async function* noBlocks() {}

/** Ends quietly once the client has hung up: the error that stopped the walk then is no server fault. */
async function* untilHangUp<T>(source: AsyncIterable<T>, signal: AbortSignal): AsyncGenerator<T> {
  try {
    yield* source;
  } catch (error) {
    if (!signal.aborted) throw error;
  }
}

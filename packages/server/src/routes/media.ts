import { Readable } from "node:stream";
import { eq } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { media } from "../db/schema.ts";
import { MediaStore } from "../media/store.ts";

/**
 * `GET /ipfs/:cid`: our IPFS gateway for the media store. Content never changes for a CID, so it is
 * cached forever. The type comes from what the uploader detected in the bytes; anything else is
 * served as a download, and a sandbox CSP stops a stored file from running scripts on our origin.
 */
export const mediaRoutes: FastifyPluginAsyncZod = async (app) => {
  const { config } = app.deps;
  // On its own origin (MEDIA_PUBLIC_URL), media is framed by the site (a PDF opens in a frame): the site may
  // frame it, nobody else.
  const policy = `default-src 'none'; img-src 'self'; sandbox${config.mediaPublicUrl ? `; frame-ancestors ${config.publicUrl.origin}` : ""}`;
  app.get(
    "/ipfs/:cid",
    {
      schema: {
        summary: "Media by IPFS CID",
        params: z.object({ cid: z.string().max(200) }),
      },
    },
    async (request, reply) => {
      const notFound = () =>
        reply
          .status(404)
          .send({ error: { code: "not_found", message: "No such content in the media store." } });
      const cid = MediaStore.parseCid(request.params.cid);
      if (!cid) return notFound();
      const file = await app.media.read(cid);
      if (!file) return notFound();
      const [row] = await app.deps.db
        .select({ mime: media.mime })
        .from(media)
        .where(eq(media.cid, request.params.cid))
        .limit(1);
      const etag = `"${cid.toString()}"`;
      reply
        .header("cache-control", "public, max-age=31536000, immutable")
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
      return reply.send(Readable.from(file.content));
    },
  );
};

/**
 * Minting: `POST /api/mint` stores an artwork and its ERC-721 metadata on IPFS and answers the metadata CID
 * the wallet mints with; `POST /api/mint/lazymint` does the same for a lazy collection and lists the item
 * at a price until a buyer mints it; `GET /api/mint/collections` offers the artist's collections per type.
 *
 * Uploads are streamed to a temporary file (never whole into memory), checked (size, type from the bytes,
 * a real decode for images), cleaned of camera metadata, and only then added to the media store, so a refused
 * upload leaves nothing behind. A video or PDF may come with a `poster` part: its frame or first page, drawn
 * by the browser (the server has no video or PDF renderer), checked like any image and shown on its card.
 */
import { createWriteStream } from "node:fs";
import { mkdir, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import {
  apiErrorSchema,
  BAD_CHARACTER_MESSAGE,
  type Collaborator,
  containsBadCharacter,
  hasBadCharacter,
  LAZY_PRICE_MIN_WEI,
  lazyMintFieldsSchema,
  MINT_FILE_MAX_BYTES,
  MINT_MESSAGES,
  MINT_POSTER_MAX_BYTES,
  type MintFields,
  type MintResponse,
  mintCollectionsQuerySchema,
  mintCollectionsResponseSchema,
  mintFieldsSchema,
  mintResponseSchema,
  splitError,
} from "@easel/common";
import { MAX_PRICE_WEI } from "@easel/contracts";
import fastifyMultipart from "@fastify/multipart";
import { sql } from "drizzle-orm";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { z } from "zod";
import { showLazyItem } from "../browse/lazyCards.ts";
import { OWNS_NAME, slugOf } from "../chain/rows.ts";
import { itemMetadata, itemTraits, lazyItems, media } from "../db/schema.ts";
import { ApiError } from "../errors.ts";
import { type ArtworkMime, detectArtworkType, detectImageType, type ImageMime } from "../media/detect.ts";
import { checkArtworkImage, ImageError, placeholderImage } from "../media/images.ts";
import { StripError, stripImageMetadata } from "../media/strip.ts";
import { badRequest, requireActiveUser, walletOrIpKey } from "./guards.ts";
import { malformedMultipart } from "./multipart.ts";

/** The multipart fields a mint may carry beside its one file. */
const MAX_FIELDS = 12;
const FIELD_MAX_BYTES = 64 * 1024;

type CheckedUpload<F> = {
  upload: Upload;
  workDir: string;
  fields: F;
  collection: { address: string; kind: string; slug: string; maxSupply: bigint };
  category: string;
  split: Collaborator[];
  creator: string;
};

type UploadedFile = { path: string; size: number; head: Buffer };
type Upload = { fields: Record<string, string>; file: UploadedFile | null; poster: UploadedFile | null };

const refuse = (code: string, message: string, status = 400) =>
  new ApiError(status, code, message, { file: message });
const refusePoster = () =>
  new ApiError(400, "invalid_poster", MINT_MESSAGES.posterInvalid, { poster: MINT_MESSAGES.posterInvalid });

export const mintRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config } = app.deps;
  await app.register(fastifyMultipart, {
    limits: {
      fileSize: MINT_FILE_MAX_BYTES,
      files: 2,
      fields: MAX_FIELDS,
      parts: MAX_FIELDS + 2,
      fieldSize: FIELD_MAX_BYTES,
    },
  });
  const uploadsDir = `${app.media.dir}.uploads`;

  /**
   * Reads the multipart body: fields into memory, the file and its poster to temporary files (their first
   * bytes kept for the type check). The caller removes `workDir` whatever happens.
   */
  async function receive(request: FastifyRequest, workDir: string): Promise<Upload> {
    if (!request.isMultipart()) throw refuse("no_file", MINT_MESSAGES.fileRequired);
    await mkdir(workDir, { recursive: true });
    const upload: Upload = { fields: {}, file: null, poster: null };
    try {
      for await (const part of request.parts()) {
        if (part.type === "field") {
          if (typeof part.value === "string") upload.fields[part.fieldname] = part.value;
          continue;
        }
        const poster = part.fieldname === "poster";
        if (poster ? upload.poster : upload.file) throw tooManyParts();
        const path = join(workDir, poster ? "poster" : "original");
        let head = Buffer.alloc(0);
        let size = 0;
        const keepHead = new Transform({
          transform(chunk: Buffer, _encoding, done) {
            if (head.length < 64) head = Buffer.concat([head, chunk.subarray(0, 64 - head.length)]);
            size += chunk.length;
            // A poster is refused as soon as it passes its cap, not after 50 MB have been written.
            done(poster && size > MINT_POSTER_MAX_BYTES ? refusePoster() : null, chunk);
          },
        });
        await pipeline(part.file, keepHead, createWriteStream(path));
        if (part.file.truncated)
          throw poster ? refusePoster() : refuse("file_too_large", MINT_MESSAGES.fileTooLarge, 413);
        upload[poster ? "poster" : "file"] = { path, size: (await stat(path)).size, head };
      }
    } catch (error) {
      if (error instanceof ApiError) throw error;
      const code = (error as { code?: string }).code;
      if (code === "FST_REQ_FILE_TOO_LARGE") throw refuse("file_too_large", MINT_MESSAGES.fileTooLarge, 413);
      if (code === "FST_FILES_LIMIT" || code === "FST_PARTS_LIMIT" || code === "FST_FIELDS_LIMIT")
        throw tooManyParts();
      throw malformedMultipart(request, error) ?? error;
    }
    return upload;
  }

  const tooManyParts = () =>
    refuse("too_many_parts", "Send one file (and a video's or PDF's poster) and the mint fields only.");

  /** The signed-in, verified, not banned artist (the market refuses the others' mints on chain too). */
  async function requireArtist(request: FastifyRequest) {
    const { session, profile } = await requireActiveUser(app, request);
    const { rows } = await db.execute<{ verified_artist: boolean; banned: boolean }>(
      sql`SELECT verified_artist, banned FROM chain_accounts WHERE address = ${session.address}`,
    );
    const account = rows[0];
    if (!account?.verified_artist || account.banned)
      throw new ApiError(403, "not_artist", MINT_MESSAGES.notArtist);
    return { session, profile };
  }

  function parseFields<S extends z.ZodType>(schema: S, fields: Record<string, string>): z.output<S> {
    // The JSON hook's check, for the fields the multipart parser read: refused before anything is stored.
    for (const [name, value] of Object.entries(fields)) {
      if (hasBadCharacter(name) || hasBadCharacter(value))
        throw new ApiError(400, "invalid_request", BAD_CHARACTER_MESSAGE, { [name]: BAD_CHARACTER_MESSAGE });
    }
    const parsed = schema.safeParse(fields);
    // JSON fields (tags, the rich description) may spell them as escapes: checked again once parsed.
    if (parsed.success && containsBadCharacter(parsed.data))
      throw new ApiError(400, "invalid_request", BAD_CHARACTER_MESSAGE);
    if (parsed.success) return parsed.data;
    const messages: Record<string, string> = {};
    for (const issue of parsed.error.issues) messages[String(issue.path[0] ?? "body")] ??= issue.message;
    const first = Object.values(messages)[0] ?? "Invalid request";
    throw new ApiError(400, "invalid_request", first, messages);
  }

  /** The collection the artist mints into: theirs (standard or lazy, as asked) or the default collection. */
  async function mintCollection(fields: MintFields, creator: string, lazy: boolean) {
    const { rows } = await db.execute<Record<string, unknown>>(sql`
      SELECT c.address, c.kind, c.owner, c.name, c.max_supply, c.blocked, d.category_id,
        ${OWNS_NAME}
      FROM chain_collections c LEFT JOIN collection_details d ON d.address = c.address
      WHERE c.address = ${fields.collection}`);
    const row = rows[0];
    const fail = (message: string) =>
      new ApiError(400, "invalid_collection", message, { collection: message });
    if (!row || row.blocked) throw fail(MINT_MESSAGES.collectionRequired);
    const kind = String(row.kind);
    if (kind !== "default" && row.owner !== creator) throw fail(MINT_MESSAGES.notYourCollection);
    if (lazy && kind !== "lazy") throw fail(MINT_MESSAGES.lazyCollectionRequired);
    if (!lazy && kind === "lazy") throw fail(MINT_MESSAGES.standardCollectionRequired);
    // A collection holds one artwork type (the default collection holds all of them).
    if (kind !== "default" && row.category_id !== null && Number(row.category_id) !== fields.category_web2_id)
      throw fail(MINT_MESSAGES.collectionRequired);
    return {
      address: String(row.address),
      kind,
      slug: slugOf(row),
      maxSupply: BigInt(String(row.max_supply)),
    };
  }

  async function categoryTitle(id: number): Promise<string> {
    const { rows } = await db.execute<{ title: string }>(
      sql`SELECT title FROM categories WHERE id = ${id} AND NOT retired`,
    );
    const title = rows[0]?.title;
    if (!title) throw badRequest("invalid_category", "category_web2_id", MINT_MESSAGES.typeRequired);
    return title;
  }

  /**
   * Checks the file and adds it, its thumbnails and its metadata JSON to the media store. Everything that can
   * refuse the upload runs before the first add.
   */
  async function storeArtwork(
    upload: Upload,
    workDir: string,
    fields: MintFields,
    creator: string,
    category: string,
    collaborators: Collaborator[],
  ): Promise<{ metadataCid: string; id: string }> {
    const file = upload.file;
    if (!file || file.size === 0) throw refuse("no_file", MINT_MESSAGES.fileRequired);
    const mime: ArtworkMime | null = detectArtworkType(file.head);
    if (!mime) throw refuse("unsupported_type", MINT_MESSAGES.fileType);
    let artworkPath = file.path;
    let image: Awaited<ReturnType<typeof checkArtworkImage>> | null = null;
    if (mime.startsWith("image/")) {
      artworkPath = join(workDir, "clean");
      try {
        await stripImageMetadata(file.path, artworkPath, mime as ImageMime);
        image = await checkArtworkImage(artworkPath, mime as ImageMime);
      } catch (error) {
        if (error instanceof StripError || error instanceof ImageError)
          throw refuse("broken_file", MINT_MESSAGES.fileBroken);
        throw error;
      }
    }
    // A video or PDF shows its poster when the browser sent one (an image needs none), else a placeholder.
    const poster = !image && upload.poster ? await checkPoster(upload.poster, workDir) : null;
    const still = image ?? poster?.image ?? null;
    const thumbnail =
      still?.thumbnail ?? (await placeholderImage(mime === "application/pdf" ? "PDF" : "Video"));
    const thumbnailCid = await app.media.add(thumbnail.bytes);
    const previewCid = still ? await app.media.add(still.preview.bytes) : null;
    const phonePreviewCid = still ? await app.media.add(still.phonePreview.bytes) : null;
    const posterCid = poster ? await app.media.add({ path: poster.path }) : null;
    const mediaCid = await app.media.add({ path: artworkPath });
    const size = (await stat(artworkPath)).size;
    const id = crypto.randomUUID();
    const metadata = {
      name: fields.name,
      description: fields.description,
      image: `ipfs://${mime.startsWith("image/") ? mediaCid : (posterCid ?? thumbnailCid)}`,
      ...(mime.startsWith("video/") ? { animation_url: `ipfs://${mediaCid}` } : {}),
      ...(mime === "application/pdf" ? { animation_url: `ipfs://${mediaCid}` } : {}),
      external_url: new URL(`/api/nft/link/${id}`, config.publicUrl).href,
      attributes: [
        ...(category ? [{ trait_type: "Category", value: category }] : []),
        ...fields.tags.map((tag) => ({ trait_type: "Tag", value: tag })),
        // The artist's properties, in the form's order (each name once: the shared schema refuses a repeat).
        ...fields.properties.map((p) => ({ trait_type: p.name, value: p.value })),
      ],
      properties: {
        creator,
        collaborators: collaborators.map((c) => ({ address: c.address, share: c.share })),
        royalty: fields.royalty,
        mime,
      },
    };
    const metadataCid = await app.media.add(new TextEncoder().encode(JSON.stringify(metadata)));
    // The webp copies derived from the artwork (thumbnail, preview, phone copy): one row each, one insert; two
    // copies with the same bytes share a CID, and the second is skipped.
    const webp = (cid: string, picture: { bytes: Uint8Array; width: number; height: number }) => ({
      cid,
      mime: "image/webp",
      size: picture.bytes.length,
      width: picture.width,
      height: picture.height,
      uploader: creator,
    });
    const derived = [
      webp(thumbnailCid, thumbnail),
      ...(still && previewCid ? [webp(previewCid, still.preview)] : []),
      ...(still && phonePreviewCid ? [webp(phonePreviewCid, still.phonePreview)] : []),
    ];
    await db.transaction(async (tx) => {
      await tx.insert(media).values(derived).onConflictDoNothing();
      if (poster && posterCid)
        await tx
          .insert(media)
          .values({
            cid: posterCid,
            mime: poster.mime,
            size: (await stat(poster.path)).size,
            width: poster.image.width,
            height: poster.image.height,
            thumbnailCid,
            previewCid,
            phonePreviewCid,
            uploader: creator,
          })
          .onConflictDoNothing();
      await tx
        .insert(media)
        .values({
          cid: mediaCid,
          mime,
          size,
          width: image?.width ?? null,
          height: image?.height ?? null,
          thumbnailCid,
          previewCid,
          phonePreviewCid,
          uploader: creator,
        })
        .onConflictDoNothing();
      await tx.insert(itemMetadata).values({
        id,
        cid: metadataCid,
        creator,
        collection: fields.collection,
        categoryId: category ? fields.category_web2_id : null,
        name: fields.name,
        description: fields.description,
        descriptionUi: fields.description_ui ?? null,
        tags: fields.tags,
        royalty: fields.royalty,
        collaborators,
        mediaCid,
      });
      // The properties again as rows, for the item page's rarity and the collection page's filters.
      if (fields.properties.length)
        await tx.insert(itemTraits).values(
          fields.properties.map((p) => ({
            cid: metadataCid,
            collection: fields.collection,
            traitType: p.name,
            value: p.value,
          })),
        );
    });
    return { metadataCid, id };
  }

  /** A video's or PDF's poster: an image (by its bytes) that decodes, cleaned of camera metadata. */
  async function checkPoster(file: UploadedFile, workDir: string) {
    const mime = detectImageType(file.head);
    if (!mime || file.size === 0) throw refusePoster();
    const path = join(workDir, "poster-clean");
    try {
      await stripImageMetadata(file.path, path, mime);
      return { path, mime, image: await checkArtworkImage(path, mime) };
    } catch (error) {
      if (error instanceof StripError || error instanceof ImageError) throw refusePoster();
      throw error;
    }
  }

  /** The split as minted: empty for the creator alone; checked with the contract's rules. */
  function checkedSplit(creator: string, collaborators: Collaborator[]): Collaborator[] {
    const split = collaborators.map((c) => ({ address: c.address.toLowerCase(), share: c.share }));
    const problem = splitError(creator, split);
    if (problem) throw badRequest("invalid_split", "_collaborators", problem);
    return split.length === 1 ? [] : split;
  }

  // Refused uploads count too: a client retrying in a loop is slowed down; an artist never meets it.
  const uploadLimit = {
    upload: true,
    rateLimit: { max: 60, timeWindow: "1 minute", keyGenerator: walletOrIpKey(app) },
  };

  /**
   * One upload route: the artist, the body (to a temporary folder removed whatever happens), the fields, the
   * collection and the split are checked, then `store` finishes the kind of mint.
   */
  function uploadRoute<F extends MintFields>(
    path: string,
    summary: string,
    schema: z.ZodType<F, Record<string, unknown>>,
    lazy: boolean,
    store: (upload: CheckedUpload<F>) => Promise<MintResponse>,
  ) {
    app.post(
      path,
      {
        config: uploadLimit,
        schema: {
          summary,
          consumes: ["multipart/form-data"],
          response: {
            200: mintResponseSchema,
            400: apiErrorSchema,
            401: apiErrorSchema,
            403: apiErrorSchema,
            413: apiErrorSchema,
          },
        },
      },
      async (request) => {
        const { session } = await requireArtist(request);
        const workDir = join(uploadsDir, crypto.randomUUID());
        try {
          const upload = await receive(request, workDir);
          const fields = parseFields(schema, upload.fields);
          const collection = await mintCollection(fields, session.address, lazy);
          const category = collection.kind === "default" ? "" : await categoryTitle(fields.category_web2_id);
          const split = checkedSplit(session.address, fields._collaborators);
          const creator = session.address;
          return await store({ upload, workDir, fields, collection, category, split, creator });
        } finally {
          await rm(workDir, { recursive: true, force: true });
        }
      },
    );
  }

  uploadRoute(
    "/",
    "Upload an artwork (image, MP4/WebM video or PDF, at most 50 MB) and its metadata to mint",
    mintFieldsSchema,
    false,
    async ({ upload, workDir, fields, category, split, creator }) => {
      const { metadataCid, id } = await storeArtwork(upload, workDir, fields, creator, category, split);
      return {
        message: "Your artwork is uploaded: confirm the mint in your wallet.",
        data: {
          newNft: {
            uri_cid: metadataCid,
            _id: id,
            royalty: fields.royalty,
            collaborators: split,
            path: null,
          },
        },
      };
    },
  );

  uploadRoute(
    "/lazymint",
    "Upload an artwork to a lazy collection and list it at a price until a buyer mints it",
    lazyMintFieldsSchema,
    true,
    async ({ upload, workDir, fields, collection, category, split, creator }) => {
      const price = BigInt(fields.price);
      if (price > MAX_PRICE_WEI) throw badRequest("price_too_high", "price", MINT_MESSAGES.priceTooHigh);
      const { rows: settings } = await db.execute<{ lazy: string | null }>(
        sql`SELECT args->>'lazyMint' AS lazy FROM chain_settings WHERE name = 'MinimumsSet'`,
      );
      const chainMinimum = BigInt(settings[0]?.lazy ?? "0");
      if (price < chainMinimum || price < LAZY_PRICE_MIN_WEI)
        throw badRequest("price_too_low", "price", MINT_MESSAGES.priceBelowChain);
      // Refuse a full collection before storing anything; the insert below checks again under the lock.
      await nextLazyTokenId(collection.address, collection.maxSupply);
      const { metadataCid } = await storeArtwork(upload, workDir, fields, creator, category, split);
      const tokenId = await db.transaction(async (tx) => {
        // One lazy upload at a time per collection: the next id is read and taken under this lock.
        await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`lazy:${collection.address}`}))`);
        const next = await nextLazyTokenId(collection.address, collection.maxSupply, tx);
        await tx.insert(lazyItems).values({
          collection: collection.address,
          tokenId: next.toString(),
          metadataCid,
          creator,
          price: price.toString(),
        });
        return next;
      });
      // For sale from now on: on the marketplace, its collection's page and count, the creator's Created tab and
      // search, like any token (its row is projected onto `chain_tokens`, see browse/lazyCards.ts).
      await showLazyItem(db.$client, { collection: collection.address, tokenId: tokenId.toString() });
      return {
        message: MINT_MESSAGES.lazyCreated,
        data: {
          newNft: {
            uri_cid: metadataCid,
            _id: tokenId.toString(),
            royalty: fields.royalty,
            collaborators: split,
            path: `/${creator}/${encodeURIComponent(collection.slug)}/${tokenId}`,
          },
        },
      };
    },
  );

  /** The next free id of a lazy collection: after every id listed or minted there; refused past the supply. */
  async function nextLazyTokenId(
    collection: string,
    maxSupply: bigint,
    executor: Pick<typeof db, "execute"> = db,
  ) {
    const { rows } = await executor.execute<{ last: string }>(sql`
      SELECT greatest(
        (SELECT max(token_id) FROM lazy_items WHERE collection = ${collection}),
        (SELECT max(token_id) FROM chain_tokens WHERE collection = ${collection}),
        0)::text AS last`);
    const next = BigInt(rows[0]?.last ?? "0") + 1n;
    if (maxSupply > 0n && next > maxSupply)
      throw new ApiError(400, "collection_full", MINT_MESSAGES.collectionFull, {
        collection: MINT_MESSAGES.collectionFull,
      });
    return next;
  }

  app.get(
    "/collections",
    {
      schema: {
        summary: "The signed-in artist's collections for an artwork type, and the default collection",
        querystring: mintCollectionsQuerySchema,
        response: { 200: mintCollectionsResponseSchema, 401: apiErrorSchema, 403: apiErrorSchema },
      },
    },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      const { session } = await requireActiveUser(app, request);
      const category = request.query.category_web2_id ?? null;
      const { rows } = await db.execute<Record<string, unknown>>(sql`
        SELECT c.address, c.kind, c.name, c.max_supply,
          ${OWNS_NAME},
          (SELECT count(*) FROM lazy_items l WHERE l.collection = c.address)::int AS listed
        FROM chain_collections c LEFT JOIN collection_details d ON d.address = c.address
        WHERE NOT c.blocked AND (c.kind = 'default'
          OR (c.owner = ${session.address} AND (${category}::int IS NULL OR d.category_id = ${category}::int)))
        ORDER BY c.kind = 'default' DESC, c.created_block DESC, c.address`);
      return {
        data: {
          collections: rows.map((row) => ({
            _id: String(row.address),
            name: String(row.name),
            contract_address: String(row.address),
            type: String(row.kind),
            slug: slugOf(row),
            remaining: row.kind === "lazy" ? Math.max(0, Number(row.max_supply) - Number(row.listed)) : null,
          })),
        },
      };
    },
  );
};

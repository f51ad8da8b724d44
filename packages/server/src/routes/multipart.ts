import type { FastifyRequest } from "fastify";
import { ApiError } from "../errors.ts";

/** @fastify/multipart's codes for a body that is not readable multipart. */
const MALFORMED_CODES = new Set([
  "FST_MP_PREMATURE_CLOSE",
  "FST_PROTO_VIOLATION",
  "FST_INVALID_JSON_FIELD_ERROR",
  "FST_INVALID_MULTIPART_CONTENT_TYPE",
  "ERR_STREAM_PREMATURE_CLOSE",
]);

/**
 * A multipart body the parser could not read (no boundary or an unusable one, a boundary the body does not use,
 * a body that ends inside a part) as a 400 `invalid_multipart`, logged at info: the client sent it, the server
 * did nothing wrong. Null for any other error, so a full disk while the file is written stays a 503.
 */
export function malformedMultipart(request: FastifyRequest, error: unknown): ApiError | null {
  if (!(error instanceof Error)) return null;
  const code = (error as { code?: unknown }).code;
  // busboy's own errors carry no code ("Multipart: Boundary not found", "Unexpected end of multipart data",
  // "Part terminated early …", "The needle …" for a boundary it cannot search for); the system's all do.
  const malformed =
    typeof code === "string"
      ? MALFORMED_CODES.has(code)
      : /multipart|boundary|needle|terminated early/i.test(error.message);
  if (!malformed) return null;
  request.log.info({ reason: error.message }, "malformed multipart body");
  const message = "The upload is not a readable multipart/form-data body: send it again.";
  return new ApiError(400, "invalid_multipart", message, { file: message });
}

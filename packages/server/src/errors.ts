import { DrizzleQueryError } from "drizzle-orm/errors";

/** An error the API answers with its own status and `{ error: { code, message, fields? } }` body. */
export class ApiError extends Error {
  override name = "ApiError";
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly fields?: Record<string, string>,
  ) {
    super(message);
  }
}

export const unauthorized = (code: string, message: string) => new ApiError(401, code, message);

/**
 * What may be logged of an unexpected error. A failed query's message holds its SQL and every parameter
 * (emails, names, addresses): only the database's own error code and message are kept.
 */
export function loggableError(error: unknown): unknown {
  if (!(error instanceof DrizzleQueryError)) return error;
  const cause = error.cause as { code?: unknown; message?: unknown } | undefined;
  return {
    type: "DrizzleQueryError",
    code: typeof cause?.code === "string" ? cause.code : undefined,
    message: typeof cause?.message === "string" ? cause.message : "query failed",
  };
}

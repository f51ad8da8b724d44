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

/**
 * The 400 for a query PostgreSQL refused for its data (class 22: a character it cannot store, text that is
 * not a number, a number out of range), or null. Such values come from the request: every string is checked
 * for NUL and lone surrogates on arrival, and this catches whatever a check missed, as bad input, not a 500.
 */
export function dataError(error: unknown): ApiError | null {
  for (let e: unknown = error, depth = 0; e && depth < 4; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && /^22[0-9A-Z]{3}$/.test(code))
      return new ApiError(400, "invalid_request", "The request holds a value that cannot be stored.");
    e = (e as { cause?: unknown }).cause;
  }
  return null;
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

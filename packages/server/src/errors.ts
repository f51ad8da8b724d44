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

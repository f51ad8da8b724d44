import { readApiError } from "@easel/common";
import { takeFirstAnswer } from "./firstAnswers.ts";
import { ownWritesPending, untilOwnWritesIndexed } from "./ownWrites.ts";

/**
 * An error answered by the Easel API (`{ error: { code, message, fields? } }`), or a network failure.
 * `message` is the server's words, ready to show to the user.
 */
export class ApiError extends Error {
  override name = "ApiError";
  readonly status: number;
  readonly code: string;
  readonly fields: Record<string, string> | undefined;

  constructor(status: number, code: string, message: string, fields?: Record<string, string>) {
    super(message);
    this.status = status;
    this.code = code;
    this.fields = fields;
  }
}

type JsonBody = Record<string, unknown> | unknown[];

export type ApiRequestInit = Omit<RequestInit, "body"> & { body?: JsonBody | FormData };

/**
 * Calls the Easel API with the session cookie and returns the parsed JSON body.
 * Throws an {@link ApiError} carrying the server's message on any non-2xx answer. A read waits until the
 * indexer has this tab's own mined transactions.
 *
 * @example const session = await apiFetch<SessionResponse>("/api/auth/session");
 */
export async function apiFetch<T>(path: string, init: ApiRequestInit = {}): Promise<T> {
  const { body, headers, ...rest } = init;
  if (!rest.method || rest.method === "GET") {
    // The page's HTML may carry this answer; not when this tab wrote something the server may not have had.
    const first = takeFirstAnswer(path);
    if (first && !ownWritesPending()) return first.body as T;
    // A read after this tab's own transaction sees it (api/ownWrites.ts).
    await untilOwnWritesIndexed();
  }
  const isForm = typeof FormData !== "undefined" && body instanceof FormData;
  let response: Response;
  try {
    response = await fetch(path, {
      credentials: "same-origin",
      ...rest,
      headers: {
        Accept: "application/json",
        ...(body !== undefined && !isForm ? { "Content-Type": "application/json" } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : isForm ? (body as FormData) : JSON.stringify(body),
    });
  } catch (cause) {
    throw new ApiError(0, "NETWORK_ERROR", "The Easel server cannot be reached. Check your connection.", {
      cause: String(cause),
    });
  }

  const text = await response.text();
  let data: unknown = null;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = null;
    }
  }

  if (!response.ok) {
    const error = readApiError(data);
    if (error) throw new ApiError(response.status, error.code, error.message, error.fields);
    // Not our error shape (a proxy, or a route that does not exist yet): keep any message it carries.
    const loose = data as { message?: unknown } | null;
    const message =
      loose && typeof loose.message === "string" && loose.message
        ? loose.message
        : `The server answered ${response.status} ${response.statusText}`.trim();
    throw new ApiError(response.status, `HTTP_${response.status}`, message);
  }
  return data as T;
}

/** The message to show for any thrown value. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  if (typeof error === "string") return error;
  return "Something went wrong.";
}

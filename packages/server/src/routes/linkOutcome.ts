import type { FastifyReply, FastifyRequest } from "fastify";
import { ApiError } from "../errors.ts";

/**
 * The answer to a confirmation link opened from a mail: a browser goes to `/?{param}=confirmed` (or
 * `=invalid`), where the web app says so (`useLinkOutcome`); a client asking for JSON gets the message,
 * or a 400 for a link that confirmed nothing.
 */
export function answerLinkOutcome(
  request: FastifyRequest,
  reply: FastifyReply,
  outcome: { confirmed: boolean; param: string; messages: { confirmed: string; invalid: string } },
) {
  if ((request.headers.accept ?? "").includes("application/json")) {
    if (!outcome.confirmed) throw new ApiError(400, "invalid_link", outcome.messages.invalid);
    return { message: outcome.messages.confirmed };
  }
  return reply.redirect(`/?${outcome.param}=${outcome.confirmed ? "confirmed" : "invalid"}`, 303);
}

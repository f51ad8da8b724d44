import { BaseError, UserRejectedRequestError } from "viem";

/** True when the user declined a wallet prompt (EIP-1193 code 4001): a calm toast, not an error. */
export function isUserRejection(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 8; depth++) {
    if (current instanceof UserRejectedRequestError) return true;
    const candidate = current as { code?: unknown; name?: unknown; cause?: unknown };
    if (candidate.code === 4001 || candidate.name === "UserRejectedRequestError") return true;
    current = candidate.cause;
  }
  return false;
}

/** The wallet's own words for an error, without viem's stack of details. */
export function walletMessage(error: unknown): string {
  if (isUserRejection(error)) return "User rejected the request.";
  if (error instanceof BaseError) {
    // `details` holds the message of the wallet (e.g. MetaMask) when viem wrapped it.
    return error.details && error.details !== error.shortMessage
      ? `${error.shortMessage} ${error.details}`.trim()
      : error.shortMessage;
  }
  if (error instanceof Error && error.message) return error.message;
  const candidate = error as { message?: unknown } | null;
  if (candidate && typeof candidate.message === "string") return candidate.message;
  return "The wallet reported an error.";
}

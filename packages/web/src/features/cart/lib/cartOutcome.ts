import type { CartQuoteLine } from "@easel/common";
import { easelMarketAbi } from "@easel/contracts/abis";
import { type Hex, parseEventLogs, type TransactionReceipt } from "viem";
import { revertDataMessage } from "../../../web3/errors.ts";

/** A work of a mined cart, as the receipt tells it. */
export type OutcomeWork = {
  collection: string;
  tokenId: string;
  name: string;
  path: string | null;
  priceWei: string;
};

/**
 * What a mined `buyMany` did, read from its receipt's events (never from what was asked): the works bought
 * (`Sale`, one per work), those skipped and refunded (`PurchaseSkipped`, with the reason in words), what was
 * spent and what came back to the buyer. A work the receipt names in neither is counted as not bought.
 */
export type CartOutcome = {
  hash: Hex;
  bought: OutcomeWork[];
  skipped: (OutcomeWork & { reason: string })[];
  spentWei: bigint;
  refundedWei: bigint;
};

export const OUTCOME_TEXT = {
  noRecord: "The transaction recorded no sale of this work.",
  unknownReason: "The market refused this purchase.",
} as const;

const keyOf = (collection: string, tokenId: bigint | string) => `${collection.toLowerCase()}:${tokenId}`;

/** The outcome of the cart `lines` (those sent) bought by `buyer` for `sentWei` in `receipt`. */
export function cartOutcome(
  receipt: Pick<TransactionReceipt, "logs" | "transactionHash">,
  market: string,
  buyer: string,
  lines: readonly CartQuoteLine[],
  sentWei: bigint,
): CartOutcome {
  const ours = receipt.logs.filter((log) => log.address.toLowerCase() === market.toLowerCase());
  const events = parseEventLogs({ abi: easelMarketAbi, logs: ours, eventName: ["Sale", "PurchaseSkipped"] });
  const sold = new Map<string, bigint>();
  const skippedWhy = new Map<string, { price: bigint; reason: string }>();
  for (const event of events) {
    if (event.args.buyer.toLowerCase() !== buyer.toLowerCase()) continue;
    const key = keyOf(event.args.collection, event.args.tokenId);
    if (event.eventName === "Sale") sold.set(key, event.args.price);
    else
      skippedWhy.set(key, {
        price: event.args.price,
        reason: revertDataMessage(event.args.reason) ?? OUTCOME_TEXT.unknownReason,
      });
  }
  const bought: OutcomeWork[] = [];
  const skipped: CartOutcome["skipped"] = [];
  let spent = 0n;
  for (const line of lines) {
    const key = keyOf(line.collection, line.tokenId);
    const work = { collection: line.collection, tokenId: line.tokenId, name: line.name, path: line.path };
    const price = sold.get(key);
    if (price !== undefined) {
      spent += price;
      bought.push({ ...work, priceWei: price.toString() });
      continue;
    }
    const why = skippedWhy.get(key);
    skipped.push({
      ...work,
      priceWei: (why?.price ?? BigInt(line.priceWei ?? "0")).toString(),
      reason: why?.reason ?? OUTCOME_TEXT.noRecord,
    });
  }
  return {
    hash: receipt.transactionHash,
    bought,
    skipped,
    spentWei: spent,
    refundedWei: sentWei > spent ? sentWei - spent : 0n,
  };
}

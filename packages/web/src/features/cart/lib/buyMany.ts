import type { CartQuoteLine } from "@easel/common";
import type { ContractCall } from "../../../web3/networkFee.ts";
import { orderArgs } from "../../trade/api/signedListings.ts";

/** The quote's lines that can be bought, in `buyMany`'s two lists (the market buys the listed ones first). */
export function buyManyArgs(lines: readonly CartQuoteLine[]) {
  const listed = lines.flatMap((line) =>
    line.listed
      ? [
          {
            collection: line.listed.collection as `0x${string}`,
            tokenId: BigInt(line.listed.tokenId),
            price: BigInt(line.listed.price),
          },
        ]
      : [],
  );
  const signed = lines.flatMap((line) =>
    line.signed
      ? [
          {
            order: orderArgs(line.signed.order),
            signature: line.signed.signature as `0x${string}`,
            bulkIndex: BigInt(line.signed.bulkIndex),
            bulkProof: line.signed.bulkProof as `0x${string}`[],
          },
        ]
      : [],
  );
  return { listed, signed };
}

/**
 * `buyMany(listed, signed, false)` sending the total: one transaction, partial fills allowed (a purchase that
 * fails is skipped and its price refunded in the same transaction).
 */
export function buyManyCall(
  market: Omit<ContractCall, "functionName" | "args" | "value">,
  lines: readonly CartQuoteLine[],
  totalWei: bigint,
): ContractCall {
  const { listed, signed } = buyManyArgs(lines);
  return { ...market, functionName: "buyMany", args: [listed, signed, false], value: totalWei };
}

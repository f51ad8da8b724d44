import type { BulkListingInput, SignedListingOrder } from "@easel/common";
import { bulkListing } from "@easel/contracts";
import { SIGNED_LISTING_DOMAIN, signedListingMaxFeeBps } from "@easel/contracts/constants";
import type { Config } from "wagmi";
import { readContract, signTypedData } from "wagmi/actions";
import { chainNowSeconds } from "../../../web3/chainTime.ts";
import { collectionContract, type useMarket } from "../../../web3/contracts.ts";
import { orderArgs } from "../../trade/api/signedListings.ts";
import { signedListingExpiry } from "../../trade/lib/signedListing.ts";

type Address = `0x${string}`;
type Market = NonNullable<ReturnType<typeof useMarket>>;

/** A work to list and its price in wei. */
export type BulkWork = { collection: string; tokenId: string; price: bigint };

/** Why nothing was signed (before the wallet opens). */
export const BULK_ORDER_TEXT = {
  notOwner: (tokenId: string) =>
    `You no longer own #${tokenId}: nothing was signed. Reload and choose again.`,
} as const;

/**
 * The orders of a bulk listing, read from chain just before signing as a single listing reads them: each
 * token's transfer count (`listingCheck`, which also says its owner), the seller's counter, the fee that
 * applies to each sale (`maxFeeBps`) and one expiry for all (100 days minus a margin from the earlier clock).
 */
export async function prepareBulkOrders(
  config: Config,
  market: Market,
  seller: Address,
  works: readonly BulkWork[],
): Promise<SignedListingOrder[]> {
  const [counter, now, fees] = await Promise.all([
    readContract(config, { ...market, functionName: "listingCounterOf", args: [seller] }),
    chainNowSeconds(config, market.chainId),
    readContract(config, { ...market, functionName: "config" }),
  ]);
  const expiresAt = signedListingExpiry(now, BigInt(Math.floor(Date.now() / 1000))).toString();
  return Promise.all(
    works.map(async (work) => {
      const token = collectionContract(work.collection as Address, market.chainId);
      const [[owner, , transferCount], sale] = await Promise.all([
        readContract(config, {
          ...token,
          functionName: "listingCheck",
          args: [BigInt(work.tokenId), market.address],
        }),
        readContract(config, { ...token, functionName: "saleInfo", args: [BigInt(work.tokenId)] }),
      ]);
      if (owner.toLowerCase() !== seller.toLowerCase())
        throw new Error(BULK_ORDER_TEXT.notOwner(work.tokenId));
      return {
        collection: work.collection.toLowerCase(),
        tokenId: work.tokenId,
        price: work.price.toString(),
        seller: seller.toLowerCase(),
        transferCount: transferCount.toString(),
        counter: counter.toString(),
        expiresAt,
        maxFeeBps: signedListingMaxFeeBps(fees, sale.primarySold),
      };
    }),
  );
}

/**
 * The typed data a seller signs once for all `orders`: `BulkListing` over the tree `bulkListing` builds (the
 * orders in this order, padded), in the market's domain as a single signed listing.
 */
export function bulkTypedData(
  orders: readonly SignedListingOrder[],
  market: Pick<Market, "address" | "chainId">,
) {
  const tree = bulkListing(orders.map(orderArgs));
  return {
    domain: { ...SIGNED_LISTING_DOMAIN, chainId: market.chainId, verifyingContract: market.address },
    types: tree.types,
    primaryType: "BulkListing" as const,
    message: tree.message,
  };
}

/** One signature in the wallet over every order (no transaction, no gas). */
export async function signBulkListing(
  config: Config,
  market: Market,
  seller: Address,
  orders: SignedListingOrder[],
): Promise<BulkListingInput> {
  const typed = bulkTypedData(orders, market);
  const signature = await signTypedData(config, { account: seller, ...typed } as never);
  return { orders, signature };
}

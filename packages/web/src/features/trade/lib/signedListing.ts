import { LISTING_DAYS, type SignedListingInput, type SignedListingOrder } from "@easel/common";
import {
  SIGNED_LISTING_DOMAIN,
  signedListingMaxFeeBps,
  signedListingTypes,
} from "@easel/contracts/constants";
import type { Config } from "wagmi";
import { readContract, signTypedData } from "wagmi/actions";
import { chainNowSeconds } from "../../../web3/chainTime.ts";
import { collectionContract, type useMarket } from "../../../web3/contracts.ts";
import { orderArgs } from "../api/signedListings.ts";

type Address = `0x${string}`;
type Market = NonNullable<ReturnType<typeof useMarket>>;

/**
 * How far inside the 100 days a signed order ends: the API checks it a moment after signing and the chain's
 * next block may be a few seconds ahead, and an expiry past 100 days is refused (`ExpiryTooFar`).
 */
export const EXPIRY_MARGIN_SECONDS = 3_600n;

/**
 * The expiry of an order signed now (unix seconds). Both the market (by block time) and the API (by its own
 * clock) refuse an expiry more than 100 days ahead, so it counts from the earlier of the two clocks: a local
 * chain moved forward, or a chain a block behind, is then accepted by both.
 */
export const signedListingExpiry = (chainNow: bigint, clockNow: bigint) =>
  (chainNow < clockNow ? chainNow : clockNow) + BigInt(LISTING_DAYS) * 86_400n - EXPIRY_MARGIN_SECONDS;

/**
 * Why a listing is not signed: the wallet is not the token's owner, or the chain read right after a cancel
 * does not show it yet (a node a block behind: an order over the old count would be void at once).
 */
export const SIGN_LISTING_TEXT = {
  notOwner: "Only the owner of this item can list it.",
  cancelNotSeen:
    "The chain does not show your cancel yet, so nothing was signed: wait a moment, then list again.",
} as const;

/**
 * The seller's wallet signs an EIP-712 `SignedListing` (no transaction, no gas). The token's transfer count
 * and the seller's listing counter are read from chain right before, so the order is void once the token
 * moves or the seller cancels all their listings; the fee that applies now is the highest it accepts
 * (`maxFeeBps`), so a fee raised later pauses the order instead of applying to it.
 *
 * After `cancelSignedListing` (which counts one transfer of the token), `transferCountAbove` is the highest
 * count the cancelled orders named: the new order must name a higher one, or it would be void at once.
 */
export async function signListing(
  config: Config,
  market: Market,
  listing: { collection: Address; tokenId: bigint; price: bigint; seller: Address },
  { transferCountAbove }: { transferCountAbove?: bigint } = {},
): Promise<SignedListingInput> {
  const { collection, tokenId, price, seller } = listing;
  const [[owner, , transferCount], counter, now, fees, sale] = await Promise.all([
    readContract(config, {
      ...collectionContract(collection, market.chainId),
      functionName: "listingCheck",
      args: [tokenId, market.address],
    }),
    readContract(config, { ...market, functionName: "listingCounterOf", args: [seller] }),
    chainNowSeconds(config, market.chainId),
    readContract(config, { ...market, functionName: "config" }),
    readContract(config, {
      ...collectionContract(collection, market.chainId),
      functionName: "saleInfo",
      args: [tokenId],
    }),
  ]);
  if (owner.toLowerCase() !== seller.toLowerCase()) throw new Error(SIGN_LISTING_TEXT.notOwner);
  if (transferCountAbove !== undefined && transferCount <= transferCountAbove)
    throw new Error(SIGN_LISTING_TEXT.cancelNotSeen);
  const order: SignedListingOrder = {
    collection: collection.toLowerCase(),
    tokenId: tokenId.toString(),
    price: price.toString(),
    seller: seller.toLowerCase(),
    transferCount: transferCount.toString(),
    counter: counter.toString(),
    expiresAt: signedListingExpiry(now, BigInt(Math.floor(Date.now() / 1000))).toString(),
    maxFeeBps: signedListingMaxFeeBps(fees, sale.primarySold),
  };
  const signature = await signTypedData(config, {
    account: seller,
    domain: { ...SIGNED_LISTING_DOMAIN, chainId: market.chainId, verifyingContract: market.address },
    types: signedListingTypes,
    primaryType: "SignedListing",
    message: orderArgs(order),
  });
  return { order, signature };
}

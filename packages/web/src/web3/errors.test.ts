import { easelCollectionAbi, easelMarketAbi } from "@easel/contracts/abis";
import {
  ContractFunctionExecutionError,
  ContractFunctionRevertedError,
  encodeErrorResult,
  parseEther,
  UserRejectedRequestError,
} from "viem";
import { describe, expect, it } from "vitest";
import { dateTimeText } from "../lib/dates.ts";
import { contractErrorOf, transactionErrorMessage } from "./errors.ts";

/** The error viem throws when a simulated or sent call reverts with `errorName(args)`. */
function reverted(errorName: string, args: readonly unknown[], functionName = "placeBid") {
  const data = encodeErrorResult({ abi: easelMarketAbi, errorName: errorName as never, args: args as never });
  const cause = new ContractFunctionRevertedError({ abi: easelMarketAbi, data, functionName });
  return new ContractFunctionExecutionError(cause, { abi: easelMarketAbi, functionName, args: [] });
}

describe("contract errors in words", () => {
  it("states the broken rule with its values instead of viem's 'reverted' message", () => {
    const error = reverted("BidTooLow", [parseEther("1"), parseEther("1.1")]);
    expect(contractErrorOf(error)?.name).toBe("BidTooLow");
    expect(transactionErrorMessage(error)).toBe("Your bid must be at least 1.1 ETH.");
  });

  it("names the minimum when a price is too low, and says too big above the maximum", () => {
    const low = reverted("PriceOutOfRange", [parseEther("0.01"), parseEther("0.05"), 2n ** 80n - 1n]);
    expect(transactionErrorMessage(low)).toBe("Price must be at least 0.05 ETH.");
    const high = reverted("PriceOutOfRange", [2n ** 80n, parseEther("0.05"), 2n ** 80n - 1n]);
    expect(transactionErrorMessage(high)).toBe("The sale price is too big.");
  });

  it("explains moderation refusals", () => {
    const banned = reverted("UserIsBanned", ["0x000000000000000000000000000000000000dEaD"]);
    expect(transactionErrorMessage(banned)).toBe("This account is banned from trading on Easel.");
    expect(transactionErrorMessage(reverted("MarketIsLocked", []))).toMatch(/market is locked/);
  });

  it("says why a signed listing cannot be filled, and when nothing is held for an account", () => {
    const seller = "0x000000000000000000000000000000000000dEaD";
    expect(transactionErrorMessage(reverted("SellOrderVoid", [3n, 4n], "fillSignedListing"))).toBe(
      "This listing is no longer available: the item has moved, or its seller cancelled the listing.",
    );
    expect(transactionErrorMessage(reverted("ListingCounterChanged", [0n, 1n], "fillSignedListing"))).toBe(
      "The seller cancelled all their listings, this one included.",
    );
    expect(transactionErrorMessage(reverted("InvalidSellerSignature", [seller], "fillSignedListing"))).toBe(
      "This listing's signature is not the seller's.",
    );
    expect(transactionErrorMessage(reverted("ExpiryTooFar", [1n, 0n], "fillSignedListing"))).toBe(
      "A listing can last at most 100 days.",
    );
    expect(transactionErrorMessage(reverted("NothingHeld", [seller], "releaseHeld"))).toBe(
      "Nothing is held for this account.",
    );
  });

  it("says why an offer is refused or cannot be accepted: expiry, whole gwei", () => {
    const expiresAt = 1_800_000_000n;
    expect(transactionErrorMessage(reverted("OfferExpired", [expiresAt], "acceptOffer"))).toBe(
      `This offer expired on ${dateTimeText(Number(expiresAt) * 1000)}: it can no longer be accepted.`,
    );
    expect(transactionErrorMessage(reverted("OfferExpiryOutOfRange", [0n, expiresAt], "makeOffer"))).toBe(
      "An offer must expire after now and at most 100 days ahead.",
    );
    expect(
      transactionErrorMessage(reverted("AmountNotWholeGwei", [parseEther("0.1") + 1n], "makeOffer")),
    ).toBe("Use at most 9 decimal places: the market takes amounts in whole gwei.");
  });

  it("words the collection-offer and cart errors", () => {
    const account = "0x000000000000000000000000000000000000dEaD";
    const words = (name: string, args: readonly unknown[]) =>
      transactionErrorMessage(reverted(name, args, "makeCollectionOffer"));
    expect(words("NoCollectionOffer", [`0x${"11".repeat(32)}`])).toBe(
      "Nothing is left of this collection offer: it was filled, cancelled or never made.",
    );
    expect(words("NotCollectionOfferBuyer", [account, account])).toBe(
      "A collection offer can only be made from the buyer's own wallet.",
    );
    expect(words("QuantityOutOfRange", [0n, 10_000n])).toBe(
      "A collection offer can be for 1 to 10000 items in all.",
    );
    expect(words("TokenNotInOffer", [7n])).toBe("This item is not one of the items this offer is for.");
    expect(words("CartSizeOutOfRange", [51n, 50n])).toBe("A cart holds 1 to 50 purchases.");
    expect(words("SpendCapReached", [parseEther("1"), parseEther("0.4")])).toBe(
      "This purchase costs 1 ETH, more than the 0.4 ETH left of what you sent.",
    );
    expect(words("InvalidBulkProof", [])).toBe(
      "This listing's proof that the seller signed it with others is not valid.",
    );
    expect(words("OnlyMarket", [account])).toBe("Only Easel's market can do this.");
  });

  it("words a collection's error that a market call passed on (the market's ABI does not name it)", () => {
    const collection = "0x000000000000000000000000000000000000dEaD";
    // The collection refuses anything but the settlement of a token in an auction, offers' accepts included.
    const data = encodeErrorResult({
      abi: easelCollectionAbi,
      errorName: "TokenInAuction",
      args: [collection, 7n],
    });
    const cause = new ContractFunctionRevertedError({
      abi: easelMarketAbi,
      data,
      functionName: "acceptOffer",
    });
    const error = new ContractFunctionExecutionError(cause, {
      abi: easelMarketAbi,
      functionName: "acceptOffer",
      args: [],
    });
    expect(contractErrorOf(error)?.name).toBe("TokenInAuction");
    expect(transactionErrorMessage(error)).toBe("This item is in an auction.");
  });

  it("keeps the calm text for a rejected wallet prompt and the wallet's words otherwise", () => {
    const rejected = new UserRejectedRequestError(new Error("User denied transaction signature."));
    expect(transactionErrorMessage(rejected)).toBe("User rejected the request.");
    expect(transactionErrorMessage(new Error("nonce too low"))).toBe("nonce too low");
    expect(contractErrorOf(new Error("nonce too low"))).toBeNull();
  });
});

import { easelCollectionAbi, easelFactoryAbi, easelMarketAbi } from "@easel/contracts/abis";
import {
  type Abi,
  BaseError,
  ContractFunctionRevertedError,
  decodeErrorResult,
  formatEther,
  type Hex,
  UserRejectedRequestError,
} from "viem";
import { dateTimeText } from "../lib/dates.ts";

/** Every custom error the Easel contracts can revert with (from the generated ABIs). */
type EaselAbi = typeof easelMarketAbi | typeof easelFactoryAbi | typeof easelCollectionAbi;
type ErrorItem = Extract<EaselAbi[number], { type: "error" }>;
export type ContractErrorName = ErrorItem["name"];

/** The ABI every revert is decoded with: market, factory and collection errors together. */
export const easelErrorsAbi = [...easelMarketAbi, ...easelFactoryAbi, ...easelCollectionAbi].filter(
  (item) => item.type === "error",
) as Abi;

type Args = readonly unknown[];
const eth = (value: unknown) => `${formatEther(BigInt(value as bigint))} ETH`;
const date = (seconds: unknown) => dateTimeText(Number(seconds) * 1000);
const minutes = (seconds: unknown) => `${Math.round(Number(seconds) / 60)} minutes`;

/**
 * What each contract error means to the person who sent the transaction. Typed from the ABIs: a new error
 * in the contracts without words here fails the typecheck.
 */
const WORDS: Record<ContractErrorName, (args: Args) => string> = {
  // Accounts and roles
  UserIsBanned: () => "This account is banned from trading on Easel.",
  NotVerifiedArtist: () => "Only verified artists can mint or create collections on Easel.",
  AccessControlUnauthorizedAccount: () => "Your wallet does not have the role this action needs.",
  AccessControlBadConfirmation: () => "Only the account itself can renounce its role.",
  LastAdmin: () => "The market's last admin cannot give up the role: make another account admin first.",
  InvalidRoleAccount: () => "A role cannot be given to the zero address or to the market's own contracts.",
  NotController: () => "Only a controller of the market can do this.",
  // Market state
  MarketIsLocked: () => "The market is locked: trading is paused for now.",
  MarketEntranceIsLocked: () =>
    "The market entrance is locked: new listings and auctions are paused for now.",
  CollectionIsBlocked: () => "This collection is blocked on Easel.",
  TokenIsBlocked: () => "This item is blocked on Easel.",
  CollectionNotSupported: () => "Only Easel collections can be traded here.",
  // Ownership and approval
  OnlyTokenOwner: () => "Only the owner of this item can do this.",
  TokenOwnerCannotCall: () => "You own this item: you cannot buy it, bid on it or make an offer on it.",
  MarketNotApproved: () => "Easel's market is not approved to transfer this item yet.",
  NotOwnerNorApproved: () => "This item cannot be moved: its owner has not approved the transfer.",
  TransferFromIncorrectOwner: () => "This item is no longer owned by that account.",
  TransferToZeroAddress: () => "An item cannot be sent to the zero address.",
  TransferToNonERC721ReceiverImplementer: () => "The receiving contract cannot hold NFTs.",
  TokenDoesNotExist: () => "This item does not exist (or was burned).",
  BalanceQueryForZeroAddress: () => "The zero address holds no items.",
  // The collection locks an auctioned token (it stays with its seller): no move, approval, burn, listing or
  // other sale until the auction is settled or cancelled.
  TokenInAuction: () => "This item is in an auction.",
  // The market settles or cancels only a token its auction locked (never met from the app).
  TokenNotInAuction: () => "This item is not in an auction.",
  // Prices and payments
  PriceOutOfRange: ([price, min]) =>
    BigInt(price as bigint) < BigInt(min as bigint)
      ? `Price must be at least ${eth(min)}.`
      : "The sale price is too big.",
  IncorrectPayment: ([required, sent]) => `This needs exactly ${eth(required)}; ${eth(sent)} was sent.`,
  InvalidMinimum: () => "Minimums must be positive multiples of 0.001 ETH.",
  FeeTooHigh: ([, max]) => `The fee can be at most ${Number(max) / 100}%.`,
  NothingToWithdraw: () => "There is nothing to withdraw.",
  NothingHeld: () => "Nothing is held for this account.",
  EthNotAccepted: () => "This contract does not accept ETH with this call.",
  // Fixed price
  NoSellOrder: () => "This item is not listed for sale.",
  SellOrderExpired: () => "This listing has expired.",
  // Also a signed listing its seller cancelled: cancelling one counts as a move of the token.
  SellOrderVoid: () =>
    "This listing is no longer available: the item has moved, or its seller cancelled the listing.",
  // Signed listings
  ListingCounterChanged: () => "The seller cancelled all their listings, this one included.",
  ExpiryTooFar: () => "A listing can last at most 100 days.",
  FeeAboveSignedMax: ([fee, max]) =>
    `Easel's fee is now ${Number(fee) / 100}%, above the ${Number(max) / 100}% the seller signed for: the seller must sign the listing again.`,
  InvalidSellerSignature: () => "This listing's signature is not the seller's.",
  // Auctions
  NoAuction: () => "This item is not in an auction.",
  NotAuctionSeller: () => "Only the seller of this auction can do this.",
  NotStandardAuction: () => "Only a standard auction's starting price can be changed.",
  AuctionHasBid: () => "This auction already has a bid, so it can no longer be changed or cancelled.",
  AuctionHasNoWinner: () => "This auction has no bid to settle.",
  AuctionNotEnded: ([end]) => `This auction ends at ${date(end)}; it can be settled after that.`,
  AuctionTimeFinished: () => "This auction has ended.",
  StartTimeNotReached: ([start]) => `This auction starts at ${date(start)}.`,
  StartTooFarAhead: () => "The auction must start within 2 weeks.",
  DurationOutOfRange: ([, min, max]) =>
    `The auction must last between ${minutes(min)} and ${Math.round(Number(max) / 86_400)} days.`,
  BidTooLow: ([, minimum]) => `Your bid must be at least ${eth(minimum)}.`,
  // Offers
  NoOffer: () => "There is no offer on this item.",
  NotOfferBuyer: () => "Only the person who made this offer can cancel it.",
  OfferTooLow: ([, minimum]) => `Your offer must be at least ${eth(minimum)}.`,
  CannotAcceptOwnOffer: () => "You cannot accept your own offer; cancel it instead.",
  OfferExpired: ([expiresAt]) => `This offer expired on ${date(expiresAt)}: it can no longer be accepted.`,
  OfferExpiryOutOfRange: () => "An offer must expire after now and at most 100 days ahead.",
  AmountNotWholeGwei: () => "Use at most 9 decimal places: the market takes amounts in whole gwei.",
  // Collection offers
  NoCollectionOffer: () =>
    "Nothing is left of this collection offer: it was filled, cancelled or never made.",
  NotCollectionOfferBuyer: () => "A collection offer can only be made from the buyer's own wallet.",
  QuantityOutOfRange: ([, max]) => `A collection offer can be for 1 to ${max} items in all.`,
  TokenNotInOffer: () => "This item is not one of the items this offer is for.",
  // Carts and bulk listings
  CartSizeOutOfRange: ([, max]) => `A cart holds 1 to ${max} purchases.`,
  SpendCapReached: ([price, left]) =>
    `This purchase costs ${eth(price)}, more than the ${eth(left)} left of what you sent.`,
  InvalidBulkProof: () => "This listing's proof that the seller signed it with others is not valid.",
  // Minting and collections
  RecordAlreadyRegistered: () => "NFT record already registered.",
  RoyaltyTooHigh: () => "The maximum royalty fee amount is 20%.",
  InvalidCid: () => "The metadata link of this item is not valid.",
  InvalidCollaboratorCount: () => "You can add 5 people maximum.",
  InvalidShare: () => "Share amount must be a multiple of 5 and at least 5%.",
  SharesNotHundred: () => "The shares must add up to exactly 100%.",
  DuplicateCollaborator: () => "Collaborator is already added.",
  FirstCollaboratorNotCreator: () => "You can't omit yourself from the split.",
  NotCollectionOwner: () => "Only the owner of this collection can do this.",
  LazyCollection: () => "Items of a lazy collection are minted when they are bought.",
  NotLazyCollection: () => "This collection does not sell lazily minted items.",
  BuyerIsCollectionOwner: () => "You own this collection: you cannot buy its lazily minted items.",
  TokenIdOutOfRange: ([, max]) => `This collection has at most ${max} items.`,
  InvalidMaxSupply: () => "A lazy collection needs a maximum supply.",
  NameLengthOutOfRange: ([, min, max]) => `The name must be ${min} to ${max} characters.`,
  SymbolLengthOutOfRange: ([, min, max]) => `The symbol must be ${min} to ${max} characters.`,
  ReservedWord: ([word]) => `"${word}" is reserved.`,
  // Vouchers and signatures
  InvalidSignature: () => "The voucher's signature is not valid.",
  VoucherExpired: () => "This voucher has expired; reload the page to get a new one.",
  VoucherRevoked: () => "This voucher was withdrawn; reload the page to get a new one.",
  VoucherAlreadyUsed: () => "This voucher was already used.",
  WrongVoucherOwner: () => "This voucher was issued to another account.",
  // Internal guards a user should never meet
  ZeroAddress: () => "An address is missing.",
  InvalidSplit: () => "The royalty split is not valid.",
  NotMarket: () => "Only Easel's market can do this.",
  OnlyMarket: () => "Only Easel's market can do this.",
  NotFactory: () => "Only Easel's factory can do this.",
  AlreadyInitialized: () => "This collection is already set up.",
  AccountBalanceOverflow: () => "This account holds too many items.",
  TokenAlreadyExists: () => "This item already exists.",
  ReentrancyGuardReentrantCall: () => "The transaction tried to call the market again while it was busy.",
  SplitterDeploymentFailed: () => "The royalty splitter could not be created.",
  FailedDeployment: () => "The contract could not be created.",
  InsufficientBalance: () => "The contract's balance is too low.",
  DirectCallRefused: () => "Send this to the market's address, not to its administration contract.",
  AdminCodeMissing: () => "The market cannot be deployed without its administration contract.",
};

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

/**
 * The contract error a failed call reverted with, if it is an Easel error: as viem decoded it with the called
 * contract's ABI, else decoded from the raw revert data with every Easel ABI (a collection's error that a
 * market call passed on, e.g. `TokenInAuction` when an offer on a token in an auction is accepted).
 */
export function contractErrorOf(error: unknown): { name: ContractErrorName; args: Args } | null {
  if (!(error instanceof BaseError)) return null;
  const reverted = error.walk((e) => e instanceof ContractFunctionRevertedError);
  if (!(reverted instanceof ContractFunctionRevertedError)) return null;
  if (reverted.data) {
    const name = reverted.data.errorName as ContractErrorName;
    return name in WORDS ? { name, args: reverted.data.args ?? [] } : null;
  }
  if (!reverted.raw) return null;
  try {
    const decoded = decodeErrorResult({ abi: easelErrorsAbi, data: reverted.raw });
    const name = decoded.errorName as ContractErrorName;
    return name in WORDS ? { name, args: decoded.args ?? [] } : null;
  } catch {
    return null;
  }
}

/**
 * The words for raw revert data (a cart's `PurchaseSkipped` reason), or null when it is no Easel error (an empty
 * reason, a failed transfer of ETH).
 */
export function revertDataMessage(data: Hex): string | null {
  try {
    const decoded = decodeErrorResult({ abi: easelErrorsAbi, data });
    const name = decoded.errorName as ContractErrorName;
    return name in WORDS ? WORDS[name](decoded.args ?? []) : null;
  } catch {
    return null;
  }
}

/**
 * One sentence for any failure of a wallet flow: the broken rule in words for a contract revert, the
 * wallet's own words otherwise (without viem's stack of details).
 */
export function transactionErrorMessage(error: unknown): string {
  if (isUserRejection(error)) return "User rejected the request.";
  const reverted = contractErrorOf(error);
  if (reverted) return WORDS[reverted.name](reverted.args);
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

import type { Batch } from "../batch.ts";
import type { ChainEvent } from "../decode.ts";

/**
 * Events that make the chain refuse signed listings for now, or may end such a refusal (see `BookChange`
 * "refuse" / "allow" in trading/signedListings.ts): the orders they concern leave the book and the floor in
 * the batch's transaction (paused, still on their sellers' Manage), and come back when the worker finds them
 * live again. These run beside the events' own handlers (`applyEvent`): a ban, a block and the minimums keep
 * their projections there.
 */
export const signedBookHandlers: Record<string, (b: Batch, e: ChainEvent) => void> = {
  /** A collection's operator approval: only the market's matters (every other is ignored). */
  ApprovalForAll(b, e) {
    if (String(e.args.operator) !== b.market) return;
    const scope = { seller: String(e.args.owner), collection: e.address };
    b.bookChange(e, { kind: e.args.isApproved === true ? "allow" : "refuse", scope, reason: "notApproved" });
    // Live updates: the collection's listings and floor may change.
    b.touch(e.address, undefined, scope.seller);
  },

  /**
   * A token's own approval: given to the market it may end a refusal; given to anyone else (or cleared) it
   * ends the market's approval of the token, which matters only without an approval for all: the orders are
   * paused and rechecked at once, and come back if the market is still approved for all.
   */
  Approval(b, e) {
    const scope = { collection: e.address, tokenId: String(e.args.id) };
    b.touch(e.address, scope.tokenId);
    if (String(e.args.account) === b.market) {
      b.bookChange(e, { kind: "allow", scope, reason: "notApproved" });
    } else {
      b.bookChange(e, { kind: "refuse", scope, reason: "notApproved" });
      b.bookChange(e, { kind: "allow", scope, reason: "notApproved" });
    }
  },

  UserBanned(b, e) {
    const scope = { seller: String(e.args.account) };
    b.bookChange(e, { kind: e.args.banned === true ? "refuse" : "allow", scope, reason: "banned" });
  },

  TokenBlocked(b, e) {
    const scope = { collection: String(e.args.collection), tokenId: String(e.args.tokenId) };
    b.bookChange(e, { kind: e.args.blocked === true ? "refuse" : "allow", scope, reason: "tokenBlocked" });
  },

  CollectionBlocked(b, e) {
    const scope = { collection: String(e.args.collection) };
    b.bookChange(e, {
      kind: e.args.blocked === true ? "refuse" : "allow",
      scope,
      reason: "collectionBlocked",
    });
  },

  /** New minimums: orders under the listing minimum are refused; those paused for it are rechecked. */
  MinimumsSet(b, e) {
    b.bookChange(e, {
      kind: "refuse",
      scope: { belowPrice: String(e.args.listing) },
      reason: "priceMin",
    });
    b.bookChange(e, { kind: "allow", scope: { all: true }, reason: "priceMin" });
  },

  /**
   * New fees: a sale pays the primary commission or the secondary fee (the chain knows which: whether the
   * token's first sale happened), refused above the order's `maxFeeBps`. Orders under both fees are refused;
   * those under only one are rechecked by the worker at once; those paused for the fee are rechecked too.
   */
  FeesSet(b, e) {
    const primary = Number(e.args.primaryFeeBps);
    const secondary = Number(e.args.secondaryFeeBps);
    const [low, high] = primary <= secondary ? [primary, secondary] : [secondary, primary];
    b.bookChange(e, { kind: "refuse", scope: { feeAbove: String(low) }, reason: "fee" });
    if (high > low) b.bookChange(e, { kind: "recheck", scope: { feeAbove: String(high) } });
    b.bookChange(e, { kind: "allow", scope: { all: true }, reason: "fee" });
  },
};

import type { Batch } from "../batch.ts";
import type { ChainEvent } from "../decode.ts";
import { blockText, timeText } from "../keys.ts";
import type { Row } from "../store.ts";
import { unixTimeText } from "./offers.ts";
import type { Handlers } from "./shared.ts";

const ZERO_ROOT = `0x${"0".repeat(64)}`;

/** Marks a collection offer's row changed by the event. */
function updated(b: Batch, e: ChainEvent, row: Row): void {
  row.updated_block = blockText(e.blockNumber);
  row.updated_tx = e.txHash;
  row.updated_at = timeText(e.blockTime);
  b.collectionOffers.touch(row);
}

/**
 * The market's collection (and trait) offers (CollectionOffers), one row per offer id. A make has no token, and
 * `chain_activity` rows name one: it shows in no activity list (the accept does, as `offer_accepted` then
 * `sale`). The accept's `Sale` (mechanism 5, `collection-offer`) is a sale like any other (`market.ts`), which
 * also tells the offerer what they bought.
 */
export const collectionOfferHandlers = {
  /** Made, or the same terms again: `added` more tokens; `remaining` is what the market now escrows for. */
  CollectionOfferMade(b, e) {
    const a = e.args;
    const offerId = String(a.offerId);
    const collection = String(a.collection);
    const row =
      b.collectionOffers.get(offerId) ??
      b.collectionOffers.set({
        offer_id: offerId,
        collection,
        buyer: String(a.buyer),
        token_root: String(a.tokenRoot) === ZERO_ROOT ? null : String(a.tokenRoot),
        price: String(a.price),
        expires_at: unixTimeText(a.expiresAt),
        quantity: 0,
        remaining: 0,
        status: "active",
        created_block: blockText(e.blockNumber),
        created_tx: e.txHash,
        created_at: timeText(e.blockTime),
      });
    row.quantity = Number(row.quantity) + Number(a.added);
    row.remaining = Number(a.remaining);
    row.status = "active";
    updated(b, e, row);
    b.touch(collection, undefined, a.buyer);
    // Owners of the works it covers whose best item offer it beats are told (indexer/notifications.ts).
    b.notifications.push({
      key: `chain:${e.blockNumber}:${e.logIndex}:collection_offer`,
      address: "",
      kind: "collection_offer",
      flag: "offer",
      message: "",
      data: { block: blockText(e.blockNumber), tx: e.txHash },
      time: e.blockTime,
      ownersBeatenBy: {
        offerId,
        collection,
        buyer: String(row.buyer),
        tokenRoot: row.token_root == null ? null : String(row.token_root),
        price: String(row.price),
        expiresAt: String(row.expires_at),
      },
    });
  },

  /** One token sold to the offer (its `Sale` follows); `remaining` is what is left of it. */
  CollectionOfferAccepted(b, e) {
    const a = e.args;
    const row = b.collectionOffers.get(String(a.offerId));
    if (!row) return;
    const collection = String(row.collection);
    const tokenId = String(a.tokenId);
    row.remaining = Number(a.remaining);
    row.status = row.remaining === 0 ? "filled" : "active";
    updated(b, e, row);
    b.activityRow(e, 0, "offer_accepted", collection, tokenId, a.seller, row.buyer, row.price);
    b.touch(collection, tokenId, a.seller, row.buyer);
  },

  /** Withdrawn by its buyer, or by anyone once expired: what remained is refunded to the buyer. */
  CollectionOfferCancelled(b, e) {
    const row = b.collectionOffers.get(String(e.args.offerId));
    if (!row) return;
    row.remaining = 0;
    row.status = "cancelled";
    updated(b, e, row);
    b.touch(String(row.collection), undefined, e.args.buyer);
  },
} satisfies Handlers;

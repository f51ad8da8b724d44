/**
 * Every event handler, registered in one place (Reservoir style): one module per source, mirroring the
 * market's mixins. A handler fills the batch (the accumulator); the batch writes everything at once.
 */
import type { Batch } from "../batch.ts";
import type { ChainEvent } from "../decode.ts";
import { blockText, SETTINGS_EVENTS } from "../keys.ts";
import { auctionHandlers } from "./auctions.ts";
import { collectionOfferHandlers } from "./collection-offers.ts";
import { collectionHandlers } from "./collections.ts";
import { marketHandlers } from "./market.ts";
import { offerHandlers } from "./offers.ts";
import { sellOrderHandlers } from "./sell-orders.ts";
import { signedBookHandlers } from "./signed-book.ts";

const recordSetting = (b: Batch, e: ChainEvent) => {
  b.settings.set({ name: e.name, args: e.args, block_number: blockText(e.blockNumber) });
};

/**
 * Events with no handler are still kept in chain_events (and undone with their block): `PaymentHeld`,
 * `HeldPaymentReleased` and `HeldPaymentForfeited` (a banned payee's share held, then paid or forfeited by an
 * operator; the sale's own `Sale` row is unchanged; GET /api/admin/held sums them from `chain_events`), and
 * `PurchaseSkipped` (a cart's purchase that was not made and refunded: it changes nothing; the purchases made
 * emit their own `Sale`).
 */
export const HANDLERS = {
  ...collectionHandlers,
  ...sellOrderHandlers,
  ...auctionHandlers,
  ...offerHandlers,
  ...collectionOfferHandlers,
  ...marketHandlers,
  ...Object.fromEntries([...SETTINGS_EVENTS].map((name) => [name, recordSetting])),
  // Each handler takes its own event's arguments; the batch calls it only for events of that name.
} as unknown as Record<string, ((b: Batch, e: ChainEvent) => void) | undefined>;

/** What events do to the signed-listing book beside their own handlers (approvals, bans, blocks, minimums). */
const BOOK_HANDLERS = new Map(Object.entries(signedBookHandlers));

/** Applies one event to the batch: its handler changes the batch's rows (events without one are only stored). */
export function applyEvent(b: Batch, e: ChainEvent): void {
  HANDLERS[e.name]?.(b, e);
  BOOK_HANDLERS.get(e.name)?.(b, e);
}

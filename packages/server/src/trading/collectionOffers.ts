/**
 * Collection and trait offers (issue 51), read from `chain_collection_offers` (the indexer's rows of the market's
 * `CollectionOffers`) and `trait_roots` (the token ids behind each trait offer's root): the ids of a trait, the
 * lists of a collection and a buyer, the best offer a work can accept with its proof, and the owners a new offer
 * should tell. Used by `routes/collectionOffers.ts` and the indexer's notifications.
 */
import type { CollectionOffer } from "@easel/common";
import { tokenRoot } from "@easel/contracts";
import { type SQL, sql } from "drizzle-orm";
import { formatEther } from "viem";
import { tokenName } from "../chain/rows.ts";
import { personAt, personColumns, personJoin } from "../community/people.ts";
import type { Database } from "../db/client.ts";
import type { Runner } from "../indexer/store.ts";

/**
 * The most works one trait offer covers. Not the contract's `MAX_OFFER_QUANTITY` (how many tokens an offer buys):
 * a root of any size is one word on chain, but the server builds its tree to hand out proofs, about 0.35 s for
 * 5,000 ids (viem's keccak in JavaScript), kept for the last `CACHED_TREES` roots. A larger trait is better
 * served by an offer on the whole collection.
 */
export const MAX_TRAIT_OFFER_WORKS = 5_000;
const CACHED_TREES = 16;

export const ZERO_ROOT = `0x${"0".repeat(64)}` as const;

export const COLLECTION_OFFER_MESSAGES = {
  noWorks: (type: string, value: string) =>
    `No work in this collection has the trait ${type}: ${value}, so there is nothing to offer on.`,
  tooMany: (count: number) =>
    `This trait covers ${count > MAX_TRAIT_OFFER_WORKS ? "more than " : ""}${MAX_TRAIT_OFFER_WORKS.toLocaleString("en-US")} works: a trait offer covers at most ${MAX_TRAIT_OFFER_WORKS.toLocaleString("en-US")}. Make an offer on the whole collection instead.`,
  oneFilter: "Ask for a collection's offers or a buyer's offers.",
} as const;

/**
 * The token ids of a collection's works whose property `traitType` is `traitValue`, ascending, as the public grid
 * shows them (minted or lazy, not burned, nothing blocked); at most `MAX_TRAIT_OFFER_WORKS + 1`, so that a caller
 * can tell a trait over the cap.
 */
export async function traitTokenIds(
  db: Database,
  collection: string,
  traitType: string,
  traitValue: string,
): Promise<string[]> {
  const { rows } = await db.execute<{ token_id: string }>(sql`
    SELECT t.token_id::text AS token_id
    FROM item_traits tr
    JOIN chain_tokens t ON t.cid = tr.cid AND t.collection = tr.collection
    JOIN chain_collections c ON c.address = t.collection
    WHERE tr.collection = ${collection} AND tr.trait_type = ${traitType} AND tr.value = ${traitValue}
      AND t.status <> 'burned' AND NOT t.blocked AND NOT c.blocked
    ORDER BY t.token_id
    LIMIT ${MAX_TRAIT_OFFER_WORKS + 1}`);
  return rows.map((r) => r.token_id);
}

/** Built trees by root, the most recently used last (a Map keeps insertion order). */
const trees = new Map<string, ReturnType<typeof tokenRoot>>();

/** `tokenRoot(ids)`, kept for the last few roots asked for: building a tree of thousands takes a while. */
export function treeOf(ids: readonly string[]): ReturnType<typeof tokenRoot> {
  const built = tokenRoot(ids.map(BigInt));
  remember(built.root, built);
  return built;
}

function remember(root: string, tree: ReturnType<typeof tokenRoot>) {
  trees.delete(root);
  trees.set(root, tree);
  while (trees.size > CACHED_TREES) trees.delete(trees.keys().next().value as string);
}

/** The proof of `tokenId` in the tree of `root` over `ids` (as stored for that root). */
function proofOf(root: string, ids: readonly string[], tokenId: string): `0x${string}`[] {
  let tree = trees.get(root);
  if (!tree) tree = treeOf(ids);
  else remember(root, tree);
  return tree.proof(BigInt(tokenId));
}

/** The columns an offer row is read with, over `o` (the offer), `r` (its trait root) and `b` (the buyer's profile). */
const OFFER_COLUMNS = sql`o.offer_id, o.collection, o.buyer, o.token_root, o.price::text AS price,
  extract(epoch FROM o.expires_at)::bigint::text AS expires_s, o.quantity, o.remaining, o.status,
  o.created_at, (o.status = 'active' AND o.expires_at <= now()) AS lapsed,
  r.trait_type, r.trait_value, cc.name AS collection_name, ${personColumns("b", "buyer")}`;

const OFFER_FROM = sql`FROM chain_collection_offers o
  LEFT JOIN trait_roots r ON r.token_root = o.token_root
  LEFT JOIN chain_collections cc ON cc.address = o.collection
  ${personJoin("b", sql`o.buyer`)}`;

/** An offer row as the API answers it: an active offer past its expiry reads "expired". */
function offerOf(row: Record<string, unknown>): CollectionOffer {
  const buyer = String(row.buyer);
  return {
    offerId: String(row.offer_id),
    terms: {
      buyer,
      collection: String(row.collection),
      tokenRoot: row.token_root ? String(row.token_root) : ZERO_ROOT,
      price: String(row.price),
      expiresAt: String(row.expires_s),
    },
    buyerPerson: personAt(row, "buyer", buyer),
    collectionName: row.collection_name == null ? null : String(row.collection_name),
    trait:
      row.trait_type == null
        ? null
        : { traitType: String(row.trait_type), traitValue: String(row.trait_value) },
    quantity: Number(row.quantity),
    remaining: Number(row.remaining),
    status: row.lapsed === true ? "expired" : (String(row.status) as CollectionOffer["status"]),
    createdAt: new Date(row.created_at as Date).toISOString(),
  };
}

/** The SQL condition of a status as readers see it (`expired`: active, past its expiry). */
function statusCondition(status: CollectionOffer["status"]): SQL {
  if (status === "active") return sql`o.status = 'active' AND o.expires_at > now()`;
  if (status === "expired") return sql`o.status = 'active' AND o.expires_at <= now()`;
  return sql`o.status = ${status}`;
}

/** The most rows a list answers. */
export const OFFER_LIST_LIMIT = 100;

/**
 * Collection offers of a collection (best price first) or of a buyer (newest first), optionally of one status.
 */
export async function listCollectionOffers(
  db: Database,
  filter: { collection?: string; buyer?: string; status?: CollectionOffer["status"] },
): Promise<CollectionOffer[]> {
  const where: SQL[] = [];
  if (filter.collection) where.push(sql`o.collection = ${filter.collection}`);
  if (filter.buyer) where.push(sql`o.buyer = ${filter.buyer}`);
  if (filter.status) where.push(statusCondition(filter.status));
  const order = filter.collection
    ? sql`o.price DESC, o.created_block, o.offer_id`
    : sql`o.created_block DESC, o.offer_id`;
  const { rows } = await db.execute<Record<string, unknown>>(sql`
    SELECT ${OFFER_COLUMNS} ${OFFER_FROM}
    WHERE ${sql.join(where, sql` AND `)}
    ORDER BY ${order}
    LIMIT ${OFFER_LIST_LIMIT}`);
  return rows.map(offerOf);
}

/**
 * The best live collection offer a work can accept now: on any token of its collection, or with a root whose
 * stored ids include it; not its owner's own, nor a banned buyer's (the market refuses both). With the proof
 * its owner passes to `acceptCollectionOffer` (empty for an offer on any token). Null when none, when the work
 * is unknown or burned, and when its owner cannot sell it now: in an auction (its collection refuses every sale
 * but the auction's settlement), held by the market (sent there by hand, until an operator rescues it), blocked
 * (the work or its collection), or its owner banned: the market refuses each.
 */
export async function bestCollectionOffer(
  db: Database,
  collection: string,
  tokenId: string,
): Promise<{ offer: CollectionOffer; proof: `0x${string}`[] } | null> {
  const { rows } = await db.execute<Record<string, unknown>>(sql`
    SELECT ${OFFER_COLUMNS}, r.token_ids
    ${OFFER_FROM}
    JOIN chain_tokens t ON t.collection = o.collection AND t.token_id = ${tokenId}::numeric
    WHERE o.collection = ${collection} AND o.status = 'active' AND o.remaining > 0 AND o.expires_at > now()
      AND o.buyer <> t.owner AND t.status NOT IN ('burned', 'auction') AND t.holder = t.owner
      AND NOT t.blocked AND NOT COALESCE(cc.blocked, false)
      AND (o.token_root IS NULL OR ${tokenId} = ANY(r.token_ids))
      AND NOT EXISTS (SELECT 1 FROM chain_accounts a WHERE a.address IN (o.buyer, t.owner) AND a.banned)
    ORDER BY o.price DESC, o.created_block, o.offer_id
    LIMIT 1`);
  const row = rows[0];
  if (!row) return null;
  const offer = offerOf(row);
  const proof =
    offer.terms.tokenRoot === ZERO_ROOT
      ? []
      : proofOf(offer.terms.tokenRoot, row.token_ids as string[], tokenId);
  return { offer, proof };
}

/** A collection offer just made, as the indexer's notification intent carries it. */
export type CollectionOfferNotice = {
  offerId: string;
  collection: string;
  buyer: string;
  /** Null: any token of the collection. */
  tokenRoot: string | null;
  price: string;
  /** ISO time. */
  expiresAt: string;
};

/** A notification for one owner of works a new collection offer covers. */
export type OwnerNotice = {
  address: string;
  message: string;
  data: { collection: string; tokenId: string; offerId: string; price: string; works: number };
};

/** The most works one owner's notification counts in its text (the rest read "and N more"). */
const quoted = (name: string) => `“${name}”`;

/**
 * The owners of the works a new collection offer covers whose best live item offer it beats (a work without a
 * live offer counts as one of nothing), one notice per owner naming their first such work: "A collection offer
 * of 0.2 ETH on Tidal beats your best offer on “Tidal #3”." Minted works only (a lazy item has no owner to
 * accept), not the buyer's own, nothing blocked or burned, none in an auction (its collection refuses to sell
 * it until the auction ends) nor held by the market (sent there by hand: not its owner's to sell until an
 * operator rescues it). A trait offer whose root Easel does not know (made without `POST /roots`) tells nobody:
 * its ids are unknown. An offer that has expired since (a replay) tells nobody either. Read beside the
 * indexer's batch, through any connection.
 */
export async function ownersBeaten(read: Runner, notice: CollectionOfferNotice): Promise<OwnerNotice[]> {
  if (Date.parse(notice.expiresAt) <= Date.now()) return [];
  let ids: string[] | null = null;
  let trait: { type: string; value: string } | null = null;
  if (notice.tokenRoot) {
    const { rows } = await read.query<{ token_ids: string[]; trait_type: string; trait_value: string }>(
      "SELECT token_ids, trait_type, trait_value FROM trait_roots WHERE token_root = $1",
      [notice.tokenRoot],
    );
    const root = rows[0];
    if (!root) return [];
    ids = root.token_ids;
    trait = { type: root.trait_type, value: root.trait_value };
  }
  const { rows } = await read.query<{
    owner: string;
    token_id: string;
    item_name: string | null;
    collection_name: string | null;
  }>(
    `SELECT t.owner, t.token_id::text AS token_id, m.name AS item_name, c.name AS collection_name
     FROM chain_tokens t
     JOIN chain_collections c ON c.address = t.collection
     LEFT JOIN item_metadata m ON m.cid = t.cid
     WHERE t.collection = $1 AND t.status NOT IN ('burned', 'auction') AND NOT t.lazy AND NOT t.blocked
       AND NOT c.blocked AND t.owner <> $2 AND t.holder = t.owner
       AND ($3::numeric[] IS NULL OR t.token_id = ANY($3::numeric[]))
       -- Only a live item offer can be beaten: an owner whose work has none is not told about every offer.
       AND t.offer IS NOT NULL AND (t.offer_expires_at IS NULL OR t.offer_expires_at > now())
       AND t.offer < $4::numeric
     ORDER BY t.owner, t.token_id`,
    [notice.collection, notice.buyer, ids, notice.price],
  );
  const byOwner = new Map<string, typeof rows>();
  for (const r of rows) byOwner.set(r.owner, [...(byOwner.get(r.owner) ?? []), r]);
  const price = `${formatEther(BigInt(notice.price))} ETH`;
  return [...byOwner].map(([address, works]) => {
    const first = works[0] as (typeof works)[number];
    const collectionName = first.collection_name ?? "this collection";
    const kind = trait ? `A trait offer (${trait.type}: ${trait.value})` : "A collection offer";
    const more = works.length > 1 ? ` and ${works.length - 1} more of your works` : "";
    return {
      address,
      message: `${kind} of ${price} on ${collectionName} beats your best offer on ${quoted(
        first.item_name ?? tokenName(first.collection_name, first.token_id),
      )}${more}.`,
      data: {
        collection: notice.collection,
        tokenId: first.token_id,
        offerId: notice.offerId,
        price: notice.price,
        works: works.length,
      },
    };
  });
}

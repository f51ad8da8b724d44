import { displayName, type ItemResponse } from "@easel/common";
import { Link } from "react-router";
import { useSession } from "../../../auth/session.ts";
import { dateTimeText } from "../../../lib/dates.ts";
import { ethText } from "../../../lib/eth.ts";
import { Button, buttonClass } from "../../../ui/Button.tsx";
import { PersonName } from "../../../ui/PersonName.tsx";
import { UsdValue } from "../../../ui/UsdValue.tsx";
import { useWalletDialog } from "../../../wallet/walletDialogState.tsx";
import { endsIn } from "../../browse/components/NftCard.tsx";
import { AddToCartButton } from "../../cart/components/AddToCartButton.tsx";
import { itemPath, tradePath } from "../lib/paths.ts";

type Item = ItemResponse["data"];

export const ITEM_ACTION_TEXT = {
  sellerBanned:
    "Not for sale: the seller's account is suspended on Easel, and the market refuses this sale while it is.",
  ownBanned:
    "Your account is suspended: the market refuses the sale of this item while it is. A listing, or an auction without a bid, can be cancelled from the suspension notice.",
  expired: "Expired",
  expiredForOwner:
    "This offer has expired: it can no longer be accepted. Its offerer can withdraw it or make a new one.",
  expiredForOfferer:
    "Your offer has expired: the owner can no longer accept it. Withdraw it to get your ETH back, or renew it, from Manage Offer.",
  // The chain's words for what its collection refuses (`TokenInAuction`, web3/errors.ts).
  inAuction: "This item is in an auction.",
  inAuctionOffers:
    "This item is in an auction: no offer can be accepted until the auction is settled or cancelled.",
} as const;

/**
 * Whether the item is in an auction. It stays in its seller's wallet, locked by its collection: no transfer,
 * approval, burn, listing or other sale (item or collection offer) until the auction is settled or cancelled.
 */
export const isInAuction = (item: Item) => item.nft.status === "auction" || !!item.nft.auction;

type Offer = Item["nft"]["offers"][number];

/**
 * The offers the market still holds: live ones and expired ones (the API says 'expired' once its clock passes
 * the expiry; until they are withdrawn or beaten their ETH stays escrowed).
 */
export const currentOffers = (offers: readonly Offer[]) =>
  offers.filter((o) => o.status === "active" || o.status === "expired");

/**
 * Whether an offer has expired by `now` (the chain's time, which a local chain may move ahead of the API's),
 * or by the API's word; an offer without an expiry never does.
 */
export const isExpiredOffer = (offer: Pick<Offer, "expiresAt" | "status">, now: number) =>
  offer.status === "expired" || (!!offer.expiresAt && new Date(offer.expiresAt).getTime() <= now);

/** "Expires in 2d 4h", "Expires in 3h 12m", "Expires in 5m", "Expires in 45s": the time left, coarsely. */
export function expiresInText(expiresMs: number, now: number): string {
  const left = Math.max(0, Math.floor((expiresMs - now) / 1000));
  const d = Math.floor(left / 86_400);
  const h = Math.floor((left % 86_400) / 3600);
  const m = Math.floor((left % 3600) / 60);
  if (d > 0) return `Expires in ${d}d ${h}h`;
  if (h > 0) return `Expires in ${h}h ${m}m`;
  if (m > 0) return `Expires in ${m}m`;
  return `Expires in ${left}s`;
}

/** Whether the item's actions depend on the time: an auction's end, or an offer's expiry. */
export const needsClock = (item: Item) =>
  !!item.nft.auction?.endTime || currentOffers(item.nft.offers).some((o) => !!o.expiresAt);

/**
 * What this viewer may do with the item now, as links to the trading pages. `now` is the chain's time, read
 * only for an auction or an offer that expires (`needsClock`).
 */
export function ActionArea({ item, now }: { item: Item; now: number }) {
  const { nft } = item;
  const { session } = useSession();
  const me = session?.address.toLowerCase() ?? null;
  const endMs = nft.auction?.endTime ? new Date(nft.auction.endTime).getTime() : null;
  // Still active after its end: nobody has settled it yet (settling ends it), or nobody bid.
  const ended = endMs !== null && endMs <= now;
  const owner = nft.owner?.address ?? null;
  const isOwner = !!me && (nft.status === "lazy" ? me === nft.creator.address : me === owner);
  const actions: { to: string; label: string; primary?: boolean }[] = [];
  const activeOffers = currentOffers(nft.offers);
  const liveOffers = activeOffers.filter((o) => !isExpiredOffer(o, now));
  let priceLabel = "Price";
  let priceWei = nft.priceWei;
  if (nft.blocked) {
    return (
      <p
        role="alert"
        className="rounded-xl bg-red-50 p-4 text-sm text-red-800 dark:bg-red-950 dark:text-red-200"
      >
        This item is blocked on Easel: it cannot be traded.
      </p>
    );
  }
  if (nft.sellerBanned && (nft.listing || nft.auction)) {
    // Still on chain, but the market refuses it: no price that looks buyable, and the reason in words.
    return (
      <section
        aria-labelledby="item-sale"
        className="flex flex-col items-start gap-3 rounded-2xl border border-neutral-200 p-5 dark:border-neutral-800"
      >
        <h2 id="item-sale" className="text-sm text-neutral-500">
          Not for sale
        </h2>
        <p className="text-sm text-neutral-700 dark:text-neutral-300">
          {isOwner ? ITEM_ACTION_TEXT.ownBanned : ITEM_ACTION_TEXT.sellerBanned}
        </p>
        {isOwner ? (
          <Link to="/banned" className={buttonClass("secondary")}>
            Cancel listing &amp; offers
          </Link>
        ) : null}
      </section>
    );
  }
  if (nft.status === "lazy") {
    if (isOwner) actions.push({ to: tradePath("lazyMint/changePrice", item), label: "Edit Minting Price" });
    // Unlisted after 100 days: only its creator can list it again (by setting a price).
    else if (nft.priceWei)
      actions.push({ to: tradePath("lazyMint/buy", item), label: "Mint and Buy", primary: true });
  } else if (nft.listing) {
    if (isOwner) actions.push({ to: tradePath("FixedPrice/manage", item), label: "Manage listing" });
    else {
      actions.push({ to: tradePath("FixedPrice/buy", item), label: "Buy Now", primary: true });
      actions.push({ to: tradePath("offer", item), label: "Make an Offer" });
    }
  } else if (nft.auction) {
    const reserve = nft.auction.kind === "reserve";
    priceLabel = nft.auction.topBidWei
      ? ended
        ? "Winning bid"
        : "Top bid"
      : reserve
        ? "Reserve price"
        : "Starting price";
    priceWei = nft.auction.topBidWei ?? nft.auction.basePriceWei;
    const mayManage = !!me && me === nft.auction.seller;
    if (ended && nft.auction.topBidWei) {
      // Anyone may settle (the market's completeAuction): the outcome is fixed, settling only delivers it.
      actions.push({ to: tradePath("Auction/settle", item), label: "Settle auction", primary: true });
    } else if (mayManage) {
      actions.push({
        to: tradePath(reserve ? "Auction/manageReserved" : "Auction/manage", item),
        label: "Manage auction",
      });
    } else if (!ended) {
      actions.push({
        to: tradePath(reserve ? "Auction/placeBidReservedAuction" : "Auction/placeBid", item),
        label: "Place a Bid",
        primary: true,
      });
    }
  } else if (nft.status !== "burned" && !isInAuction(item)) {
    priceLabel = "Last Price";
    priceWei = nft.lastPriceWei;
    if (isOwner) {
      actions.push({ to: tradePath("FixedPrice/set", item), label: "Set a Fixed Price", primary: true });
      // The chooser offers the auction kinds this item allows (the spec's permisionNft flags).
      if (item.permisionNft.auction || item.permisionNft.reserve)
        actions.push({ to: tradePath("Auction/select", item), label: "Start an Auction" });
      // An expired offer stays on chain until it is withdrawn, but the market refuses to accept it.
      if (liveOffers.length) actions.push({ to: tradePath("acceptOffer", item), label: "Accept Offer" });
    } else {
      const mine = !!me && activeOffers.some((o) => o.address === me);
      actions.push({
        to: tradePath("offer", item),
        label: mine ? "Manage Offer" : "Make an Offer",
        primary: true,
      });
    }
  }
  return (
    <section
      aria-labelledby="item-sale"
      className="flex flex-col gap-4 rounded-2xl border border-neutral-200 p-5 dark:border-neutral-800"
    >
      <h2 id="item-sale" className="sr-only">
        Sale
      </h2>
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <p className="text-sm text-neutral-500">{priceLabel}</p>
          <p className="text-2xl font-bold tabular-nums">{ethText(priceWei)}</p>
          <UsdValue wei={priceWei} className="text-sm" />
          {nft.listing?.kind === "signed" ? (
            // Bought like any listing; said only so a curious collector knows why no listing transaction shows.
            <p className="text-xs text-neutral-500">Listed by signature</p>
          ) : null}
        </div>
        {ended ? (
          <p className="text-sm font-semibold">Auction ended</p>
        ) : endMs !== null ? (
          <p className="text-sm font-semibold tabular-nums">{endsIn(endMs, now)}</p>
        ) : nft.auction?.kind === "reserve" ? (
          <p className="text-sm text-neutral-600 dark:text-neutral-400">
            Starts when the reserve price is met
          </p>
        ) : null}
      </div>
      {ended && nft.auction ? <EndedAuction auction={nft.auction} me={me} /> : null}
      {isInAuction(item) && !nft.auction ? (
        // Said to be in an auction before its details are known: nothing can be done with it meanwhile.
        <p className="text-sm text-neutral-600 dark:text-neutral-400">{ITEM_ACTION_TEXT.inAuction}</p>
      ) : null}
      {activeOffers.length ? (
        <OfferList
          offers={activeOffers}
          now={now}
          me={me}
          isOwner={isOwner && !!me}
          inAuction={isInAuction(item)}
        />
      ) : null}
      {actions.length && me ? (
        <div className="flex flex-wrap gap-2">
          {actions.map((action) => (
            <Link
              key={action.label}
              to={action.to}
              className={buttonClass(action.primary ? "primary" : "secondary")}
            >
              {action.label}
            </Link>
          ))}
          {nft.listing && nft.priceWei && !isOwner ? (
            <AddToCartButton
              seller={owner}
              work={{
                collection: item.nftCollection.contract_address,
                tokenId: nft.tokenId,
                name: nft.name,
                image: nft.media?.thumbnail ?? null,
                path: itemPath(item),
                priceWei: nft.listing.priceWei,
              }}
            />
          ) : null}
        </div>
      ) : actions.length ? (
        <ConnectToAct what={ended ? "settle" : "buy, bid or offer"} />
      ) : null}
    </section>
  );
}

/**
 * The item's current offers (the market keeps one per item; an expired one stays until it is withdrawn or
 * beaten): amount, offerer and when it expires, or 'Expired' with what that means for the viewer. An offer made
 * before the item went in an auction stays, but its owner cannot accept it meanwhile: they are told why.
 */
function OfferList({
  offers,
  now,
  me,
  isOwner,
  inAuction,
}: {
  offers: Offer[];
  now: number;
  me: string | null;
  isOwner: boolean;
  inAuction: boolean;
}) {
  const expired = offers.filter((offer) => isExpiredOffer(offer, now));
  const mineExpired = !!me && expired.some((offer) => offer.address === me);
  const note = mineExpired
    ? ITEM_ACTION_TEXT.expiredForOfferer
    : isOwner && expired.length === offers.length
      ? ITEM_ACTION_TEXT.expiredForOwner
      : isOwner && inAuction
        ? ITEM_ACTION_TEXT.inAuctionOffers
        : null;
  return (
    <div className="flex flex-col gap-2">
      <h3 id="item-offers" className="text-sm text-neutral-500">
        {offers.length > 1 ? "Offers" : "Offer"}
      </h3>
      <ul aria-labelledby="item-offers" className="flex flex-col gap-1.5">
        {offers.map((offer) => (
          <li
            key={`${offer.address}:${offer.time}`}
            className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 text-sm"
          >
            <span className="text-neutral-700 dark:text-neutral-300">
              <span className="font-semibold tabular-nums">{ethText(offer.priceWei)}</span> by{" "}
              <PersonName person={offer.person} you={me} />
            </span>
            {isExpiredOffer(offer, now) ? (
              <span className="rounded-full bg-neutral-100 px-2 py-0.5 text-xs font-semibold text-neutral-700 dark:bg-neutral-800 dark:text-neutral-200">
                {ITEM_ACTION_TEXT.expired}
              </span>
            ) : offer.expiresAt ? (
              <time
                dateTime={offer.expiresAt}
                title={dateTimeText(offer.expiresAt)}
                className="text-neutral-600 tabular-nums dark:text-neutral-400"
              >
                {expiresInText(new Date(offer.expiresAt).getTime(), now)}
              </time>
            ) : null}
          </li>
        ))}
      </ul>
      {note ? <p className="text-sm text-neutral-700 dark:text-neutral-300">{note}</p> : null}
    </div>
  );
}

/** An auction past its end that is still open: who won and who may settle it, or that nobody bid. */
function EndedAuction({ auction, me }: { auction: NonNullable<Item["nft"]["auction"]>; me: string | null }) {
  if (!auction.topBidWei || !auction.topBidder) {
    return (
      <p className="text-sm text-neutral-600 dark:text-neutral-400">
        The auction ended without a bid
        {me === auction.seller ? ": you can cancel it to free the item." : "."}
      </p>
    );
  }
  const winner =
    me === auction.topBidder ? "you" : displayName(auction.topBidderPerson ?? { address: auction.topBidder });
  const seller = me === auction.seller ? "you" : "the seller";
  return (
    <p className="text-sm">
      {`The auction has ended and awaits settlement. Anyone can settle it: the item goes to the winner (${winner}) and the payment to ${seller}.`}
    </p>
  );
}

function ConnectToAct({ what }: { what: string }) {
  const { openWalletDialog } = useWalletDialog();
  return (
    <Button onClick={openWalletDialog} className="self-start">
      Connect Wallet to {what}
    </Button>
  );
}

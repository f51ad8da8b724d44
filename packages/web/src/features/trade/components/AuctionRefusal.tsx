import { Link } from "react-router";
import { isInAuction } from "../../items/components/ItemActions.tsx";
import { tradePath } from "../../items/lib/paths.ts";
import { AUCTION_TEXT } from "./auctionText.ts";
import { type Item, TradeNotice } from "./TradeScreen.tsx";

/**
 * Why `me` cannot put the item in an auction, as the notice to show (null when they can): the chooser and both
 * forms ask the same, so an address typed by hand meets the same answer as the item page's buttons.
 */
export function auctionRefusal(item: Item, me: string) {
  if (item.nft.owner?.address !== me) return <TradeNotice item={item}>{AUCTION_TEXT.notOwner}</TradeNotice>;
  if (isInAuction(item)) return <TradeNotice item={item}>{AUCTION_TEXT.alreadyInAuction}</TradeNotice>;
  if (item.nft.listing)
    return (
      <TradeNotice item={item}>
        {AUCTION_TEXT.listed}{" "}
        <Link to={tradePath("FixedPrice/manage", item)} className="underline">
          Manage listing
        </Link>
      </TradeNotice>
    );
  return null;
}

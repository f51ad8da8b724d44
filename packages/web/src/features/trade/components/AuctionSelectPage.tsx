import { Link } from "react-router";
import { tradePath } from "../../items/lib/paths.ts";
import { auctionRefusal } from "./AuctionRefusal.tsx";
import { AUCTION_TEXT, RESERVE_HOURS } from "./auctionText.ts";
import { type Item, TradeNotice, TradeScreen } from "./TradeScreen.tsx";

/** The auction kinds, as the chooser describes them (the standard one in the spec's words). */
const AUCTION_KINDS = [
  {
    flag: "auction",
    route: "Auction/setStandard",
    title: "Standard Auction",
    description: "You set the starting price, starting time, and ending time of the auction.",
  },
  {
    flag: "reserve",
    route: "Auction/setReserved",
    title: "Reserved Auction",
    description: `You set the reserve price; the first bid that meets it starts a ${RESERVE_HOURS}-hour auction.`,
  },
] as const;

/** /Auction/select: 'Select the Auction Type', offering the kinds the item's permission flags allow. */
export function AuctionSelectPage() {
  return (
    <TradeScreen title="Select the Auction Type" loading={<AuctionKindsSkeleton />}>
      {({ item, me }) => <SelectAuctionKind item={item} me={me} />}
    </TradeScreen>
  );
}

function SelectAuctionKind({ item, me }: { item: Item; me: string }) {
  const refusal = auctionRefusal(item, me);
  if (refusal) return refusal;
  const kinds = AUCTION_KINDS.filter((kind) => item.permisionNft[kind.flag]);
  if (!kinds.length) return <TradeNotice item={item}>{AUCTION_TEXT.noAuctionKind}</TradeNotice>;
  return (
    <div className="flex flex-col gap-4">
      <ul className="grid gap-4 sm:grid-cols-2">
        {kinds.map((kind) => (
          <li key={kind.flag}>
            <Link
              to={tradePath(kind.route, item)}
              className="flex h-full flex-col gap-2 rounded-2xl border border-neutral-200 p-5 hover:border-accent-500 hover:bg-neutral-50 focus-visible:outline-2 dark:border-neutral-800 dark:hover:bg-neutral-900"
            >
              <span className="text-lg font-semibold">{kind.title}</span>
              <span className="text-sm text-neutral-600 dark:text-neutral-400">{kind.description}</span>
            </Link>
          </li>
        ))}
      </ul>
      <Link
        to="/FAQ#faq-practical"
        className="self-start text-sm text-accent-700 underline dark:text-accent-300"
      >
        Read more about auction types
      </Link>
    </div>
  );
}

/** The chooser's shape while the item loads. */
function AuctionKindsSkeleton() {
  return (
    <section
      className="mx-auto flex w-full max-w-2xl flex-col gap-6 px-4 py-10"
      aria-busy="true"
      aria-label="Loading the auction types"
    >
      <div className="h-9 w-2/3 animate-pulse rounded-lg bg-neutral-200 dark:bg-neutral-800" />
      <div className="h-22 animate-pulse rounded-2xl bg-neutral-100 dark:bg-neutral-900" />
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="h-28 animate-pulse rounded-2xl bg-neutral-100 dark:bg-neutral-900" />
        <div className="h-28 animate-pulse rounded-2xl bg-neutral-100 dark:bg-neutral-900" />
      </div>
    </section>
  );
}

import {
  displayName,
  type ItemResponse,
  isPixelArt,
  mediaUrl,
  type Person,
  shortAddress,
} from "@easel/common";
import * as DropdownMenu from "@radix-ui/react-dropdown-menu";
import { lazy, memo, useCallback, useDeferredValue, useEffect, useState } from "react";
import { Link } from "react-router";
import { toast } from "sonner";
import { useAppConfig } from "../../../api/appConfig.tsx";
import { ApiError, errorMessage } from "../../../api/client.ts";
import { useSession } from "../../../auth/session.ts";
import { whenIdle } from "../../../lib/idle.ts";
import { shareTargets } from "../../../lib/share.ts";
import { usePageTitle } from "../../../lib/usePageTitle.ts";
import { Avatar } from "../../../ui/Avatar.tsx";
import { Button, buttonClass } from "../../../ui/Button.tsx";
import { MoreIcon } from "../../../ui/icons.tsx";
import { Loading } from "../../../ui/Loading.tsx";
import { Menu } from "../../../ui/Menu.tsx";
import { menuItemClass, menuSeparatorClass } from "../../../ui/menu.ts";
import { NotFound } from "../../../ui/NotFound.tsx";
import { useWalletDialog } from "../../../wallet/walletDialogState.tsx";
import { WithWallet } from "../../../web3/walletLoader.tsx";
import { recordItemView } from "../../browse/api/browse.ts";
import { ActivityTable } from "../../browse/components/CollectionActivity.tsx";
import { FavoriteHeart } from "../../browse/components/FavoriteHeart.tsx";
import { RichText } from "../../browse/components/RichText.tsx";
import { BestCollectionOffer } from "../../collection-offers/components/BestCollectionOffer.tsx";
import { LazyReportDialog } from "../../moderation/components/LazyReportDialog.tsx";
import { useItem, useLiveItem } from "../api/items.ts";
import { itemPath, useItemKey } from "../lib/paths.ts";
import { useArtworkCheck } from "../verify/useArtworkCheck.ts";
import { ActionArea, ITEM_ACTION_TEXT, isInAuction, needsClock } from "./ItemActions.tsx";
import { ItemMedia } from "./ItemMedia.tsx";
import { PriceHistory } from "./PriceHistory.tsx";
import { TraitsPanel } from "./TraitsPanel.tsx";

type Item = ItemResponse["data"];

const personName = (person: Person) => displayName(person);

/** /{creator}/{id} and /{creator}/{collection}/{id}: an item, what it is, who made and owns it, and its history. */
export function ItemPage() {
  const key = useItemKey();
  const query = useItem(key);
  // The query cache hands its answers to React as a store's update, which React renders at once, in one task
  // (on a phone a long one). Deferred, the page is drawn in a transition, in slices the browser can answer
  // taps and paint between; meanwhile what was on screen stays.
  const item = useDeferredValue(query.data);
  usePageTitle(query.data?.nft.name ?? "Item");
  if (!/^[1-9]\d{0,77}$/.test(key.tokenId)) return <NotFound />;
  if (query.isPending) return <Loading label="Loading the item" size="page" />;
  if (query.isError) {
    if (query.error instanceof ApiError && (query.error.status === 404 || query.error.status === 400))
      return <NotFound />;
    return (
      <section className="mx-auto max-w-xl px-4 py-24 text-center">
        <h1 className="text-2xl font-bold">Something went wrong.</h1>
        <p className="mt-2 text-neutral-600 dark:text-neutral-400">{errorMessage(query.error)}</p>
        <Button className="mt-6" variant="secondary" onClick={() => query.refetch()}>
          Try again
        </Button>
      </section>
    );
  }
  if (!item) return <Loading label="Loading the item" size="page" />;
  return <ItemView item={item} />;
}

/**
 * The item's page. Its parts are drawn apart: what changes while the page is open (who is signed in, the
 * artwork's check, the report dialog) redraws its own part, not the whole page, which on a phone was a long
 * task each time.
 */
const ItemView = memo(function ItemView({ item }: { item: Item }) {
  const { nft, nftCollection } = item;
  useLiveItem(item);
  const { session } = useSession();
  const { openWalletDialog } = useWalletDialog();
  const [reporting, setReporting] = useState(false);
  const onReport = useCallback(
    () => (session ? setReporting(true) : openWalletDialog()),
    [session, openWalletDialog],
  );
  // One view per visit (the server keeps one per viewer a day); lazy items are not on chain yet. Counted once
  // the page is drawn: the request waits for the browser's first idle moment.
  useEffect(() => {
    if (nft.lazy && nft.status === "lazy") return;
    return whenIdle(() => recordItemView(nftCollection.contract_address, nft.tokenId).catch(() => {}));
  }, [nftCollection.contract_address, nft.tokenId, nft.lazy, nft.status]);
  // What a phone shows below the artwork and the actions (the description, the price history, the activity)
  // is drawn in a second, deferred pass: the first draw of the page, and its effects, stay short.
  const below = useDeferredValue(true, false);
  return (
    <article className="mx-auto flex w-full max-w-6xl flex-col gap-10 px-4 py-8">
      <div className="grid gap-8 lg:grid-cols-2">
        <CheckedArtwork item={item} onReport={onReport} />
        <ItemAbout item={item} />
      </div>
      {below ? <BelowTheFold item={item} /> : null}
      {session ? (
        <LazyReportDialog
          open={reporting}
          onOpenChange={setReporting}
          targetType="item"
          targetId={`${nftCollection.contract_address}:${nft.tokenId}`}
        />
      ) : null}
    </article>
  );
});

/** The artwork, checked against the chain: the check's progress redraws the artwork alone. */
const CheckedArtwork = memo(function CheckedArtwork({
  item,
  onReport,
}: {
  item: Item;
  onReport: () => void;
}) {
  const { nft, nftCollection } = item;
  const appConfig = useAppConfig();
  // A minted token's artwork is checked against the chain; a lazy item has no token to check against yet.
  const check = useArtworkCheck(
    nft.media && nft.status !== "lazy"
      ? {
          chainId: appConfig.chainId,
          rpcUrl: appConfig.rpcUrl ?? null,
          contract: nftCollection.contract_address,
          tokenId: nft.tokenId,
          artworkCid: nft.media.cid,
          mime: nft.media.mime,
        }
      : null,
  );
  const mintTx = item.activity.findLast((row) => /mint/i.test(row.kind))?.txHash ?? null;
  return (
    <ItemMedia
      media={nft.media}
      name={nft.name}
      check={check}
      proof={{ mintTx, explorerUrl: appConfig.explorerUrl }}
      onReport={onReport}
      pixelated={isPixelArt(nft.category)}
    />
  );
});

/** What the item is, who made and owns it, what can be done with it, and its details. */
const ItemAbout = memo(function ItemAbout({ item }: { item: Item }) {
  const { nft, nftCollection } = item;
  const { explorerUrl } = useAppConfig();
  const collectionLink =
    nftCollection.kind === "default" ? null : `/collection/${encodeURIComponent(nftCollection.slug)}`;
  return (
    <div className="flex flex-col gap-5">
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          {collectionLink ? (
            <Link
              to={collectionLink}
              className="text-sm font-semibold text-accent-700 hover:underline dark:text-accent-300"
            >
              {nftCollection.name}
            </Link>
          ) : (
            <span className="text-sm font-semibold text-neutral-600 dark:text-neutral-400">
              {nftCollection.name}
            </span>
          )}
          <h1 className="mt-1 text-3xl font-bold tracking-tight break-words">{nft.name}</h1>
        </div>
        <div className="flex shrink-0 items-center gap-1">
          {nft.status === "lazy" ? null : (
            <FavoriteHeart
              collection={nftCollection.contract_address}
              tokenId={nft.tokenId}
              name={nft.name}
              favorite={nft.isFavorite}
              favorites={nft.favorites}
              className="border border-neutral-200 dark:border-neutral-800"
            />
          )}
          <ShareMenu item={item} />
          <ItemMenu item={item} />
        </div>
      </div>
      <People item={item} />
      <TimedActionArea item={item} />
      <BestCollectionOffer
        collection={nftCollection.contract_address}
        tokenId={nft.tokenId}
        owner={nft.owner?.address ?? null}
        lazy={nft.status === "lazy"}
        inAuction={isInAuction(item)}
      />
      <section aria-labelledby="item-details" className="flex flex-col gap-3">
        <h2 id="item-details" className="text-lg font-semibold">
          Details
        </h2>
        <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm">
          {nft.category ? (
            <>
              <dt className="text-neutral-500">Type</dt>
              <dd>{nft.category}</dd>
            </>
          ) : null}
          <dt className="text-neutral-500">Royalty</dt>
          <dd>{nft.royalty}%</dd>
          <dt className="text-neutral-500">Contract</dt>
          <dd className="font-mono break-all">
            {explorerUrl ? (
              <a
                href={`${explorerUrl}/address/${nftCollection.contract_address}`}
                target="_blank"
                rel="noopener noreferrer"
                className="underline"
              >
                {shortAddress(nftCollection.contract_address)}
              </a>
            ) : (
              nftCollection.contract_address
            )}
          </dd>
          <dt className="text-neutral-500">Token ID</dt>
          <dd className="font-mono break-all">
            {explorerUrl && nft.status !== "lazy" ? (
              <a
                href={`${explorerUrl}/nft/${nftCollection.contract_address}/${nft.tokenId}`}
                target="_blank"
                rel="noopener noreferrer"
                className="underline"
              >
                {nft.tokenId}
              </a>
            ) : (
              nft.tokenId
            )}
            {nft.status === "lazy" ? " (minted at purchase)" : ""}
          </dd>
          {nft.uri_cid ? (
            <>
              <dt className="text-neutral-500">Metadata</dt>
              <dd>
                <a
                  href={mediaUrl(nft.uri_cid) ?? undefined}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="underline"
                >
                  IPFS
                </a>
              </dd>
            </>
          ) : null}
        </dl>
        {nft.tags.length ? (
          <ul className="flex flex-wrap gap-2" aria-label="Tags">
            {nft.tags.map((tag) => (
              <li key={tag} className="rounded-full bg-neutral-100 px-3 py-1 text-sm dark:bg-neutral-800">
                #{tag}
              </li>
            ))}
          </ul>
        ) : null}
      </section>
      <TraitsPanel
        collection={nftCollection.contract_address}
        tokenId={nft.tokenId}
        collectionLink={collectionLink}
      />
    </div>
  );
});

/** The item's description, price history and activity: below the fold on a phone, drawn after the rest. */
const BelowTheFold = memo(function BelowTheFold({ item }: { item: Item }) {
  const { nft } = item;
  return (
    <>
      {nft.description_ui || nft.description ? (
        <section aria-labelledby="item-description" className="flex max-w-3xl flex-col gap-2">
          <h2 id="item-description" className="text-lg font-semibold">
            Description
          </h2>
          <div className="text-neutral-700 dark:text-neutral-300">
            {nft.description_ui ? <RichText doc={nft.description_ui} /> : <p>{nft.description}</p>}
          </div>
        </section>
      ) : null}
      {nft.status === "lazy" ? null : (
        <>
          <PriceHistory points={item.priceHistory} />
          <section aria-labelledby="item-activity" className="flex flex-col gap-3">
            <h2 id="item-activity" className="text-lg font-semibold">
              Activity
            </h2>
            {item.activity.length ? (
              <ActivityTable rows={item.activity} caption="This item's activity, newest first" />
            ) : (
              <p className="text-neutral-600 dark:text-neutral-400">No activity yet.</p>
            )}
          </section>
        </>
      )}
    </>
  );
});

function PersonLink({ person, label }: { person: Person; label: string }) {
  return (
    <Link
      to={`/profile/${person.username || person.address}`}
      className="flex items-center gap-2 hover:underline"
    >
      <Avatar address={person.address} src={mediaUrl(person.avatar)} className="size-8" />
      <span className="flex flex-col leading-tight">
        <span className="text-xs text-neutral-500">{label}</span>
        <span className="text-sm font-semibold">{personName(person)}</span>
      </span>
    </Link>
  );
}

function People({ item }: { item: Item }) {
  const { nft } = item;
  const split = nft.collaborators.length > 1;
  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap gap-6">
        <PersonLink person={nft.creator} label="Creator" />
        {nft.owner ? <PersonLink person={nft.owner} label="Owner" /> : null}
      </div>
      {split ? (
        <div>
          <h2 className="text-sm font-semibold">Collaborators</h2>
          <ul className="mt-2 flex flex-wrap gap-4" aria-label="Collaborators">
            {nft.collaborators.map((c) => (
              <li key={c.address} className="flex items-center gap-2 text-sm">
                <Avatar address={c.address} src={mediaUrl(c.avatar)} className="size-6" />
                <Link to={`/profile/${c.username || c.address}`} className="hover:underline">
                  {personName(c)}
                </Link>
                <span className="font-semibold tabular-nums">{c.share}%</span>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}

// The page paints from the API alone; what needs the wallet code (the chain's clock, transactions) loads
// beside it, so the art never waits for wagmi and viem.
const ChainTimedActionArea = lazy(() => import("./ChainTimedActionArea.tsx"));
const TransferDialog = lazy(() =>
  import("./ItemTransactions.tsx").then((m) => ({ default: m.TransferDialog })),
);
const BurnDialog = lazy(() => import("./ItemTransactions.tsx").then((m) => ({ default: m.BurnDialog })));

/**
 * The actions. An auction ends by the chain's clock (a local chain may run ahead of this computer's), so an
 * item in an auction waits for it rather than show a moment of actions that are no longer open. An offer
 * expires by the same clock; until it is read, this computer's stands in (the same on a real chain).
 */
function TimedActionArea({ item }: { item: Item }) {
  if (!needsClock(item)) return <ActionArea item={item} now={0} />;
  const waiting = item.nft.auction?.endTime ? (
    <Loading label="Loading the auction's time" />
  ) : (
    <ActionArea item={item} now={Date.now()} />
  );
  return (
    <WithWallet fallback={waiting}>
      <ChainTimedActionArea item={item} />
    </WithWallet>
  );
}

/** Copy Link and the six share targets, each with 'Check out this item'. */
function ShareMenu({ item }: { item: Item }) {
  const url = typeof window === "undefined" ? "" : `${window.location.origin}${itemPath(item)}`;
  return (
    <Menu
      label="Share"
      triggerClassName={buttonClass("ghost", "px-2.5")}
      trigger={
        <svg
          viewBox="0 0 24 24"
          className="size-5"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          aria-hidden="true"
        >
          <path
            d="M4 12v7a1 1 0 0 0 1 1h14a1 1 0 0 0 1-1v-7M16 6l-4-4-4 4M12 2v14"
            strokeLinecap="round"
            strokeLinejoin="round"
          />
        </svg>
      }
      contentClassName="max-h-[360px] overflow-y-auto"
    >
      <DropdownMenu.Item
        className={menuItemClass}
        onSelect={() =>
          navigator.clipboard
            .writeText(url)
            .then(() => toast.success("Link copied"))
            .catch(() => toast.error("The link could not be copied."))
        }
      >
        Copy Link
      </DropdownMenu.Item>
      {shareTargets(url, "Check out this item").map((target) => (
        <DropdownMenu.Item key={target.label} asChild className={menuItemClass}>
          <a href={target.href} target="_blank" rel="noopener noreferrer">
            {target.label}
          </a>
        </DropdownMenu.Item>
      ))}
    </Menu>
  );
}

/**
 * The item menu by status (browsing-and-accounts, "Item menu by status"): a lazy item offers its owner (its
 * creator) Report, and others Transfer and Report; a minted item offers its owner Transfer, Report and Burn,
 * and others Report. An owner may report what they hold (a counterfeit they bought, a file that broke). While
 * the item is in an auction its collection refuses to move or burn it: its owner sees Transfer and Burn
 * disabled, under the reason.
 */
function ItemMenu({ item }: { item: Item }) {
  const { nft, nftCollection } = item;
  const { signedIn, session } = useSession();
  const { openWalletDialog } = useWalletDialog();
  const [open, setOpen] = useState<"report" | "transfer" | "burn" | null>(null);
  const me = session?.address.toLowerCase() ?? null;
  const lazy = nft.status === "lazy";
  const isOwner = !!me && (lazy ? me === nft.creator.address : me === nft.owner?.address);
  const entries: ("Transfer" | "Report" | "Burn")[] = lazy
    ? isOwner
      ? ["Report"]
      : ["Transfer", "Report"]
    : isOwner
      ? ["Transfer", "Report", "Burn"]
      : ["Report"];
  // The chain would refuse either (`TokenInAuction`) until the auction is settled or cancelled.
  const locked = isOwner && !lazy && isInAuction(item);
  const choose = (entry: (typeof entries)[number]) => {
    if (!signedIn) return openWalletDialog();
    setOpen(entry === "Transfer" ? "transfer" : entry === "Burn" ? "burn" : "report");
  };
  return (
    <>
      <Menu
        label="More"
        triggerClassName={buttonClass("ghost", "px-2.5")}
        trigger={<MoreIcon />}
        contentClassName="max-h-[270px] overflow-y-auto"
      >
        {locked ? (
          <DropdownMenu.Label className="px-3 py-2 text-xs text-neutral-600 dark:text-neutral-400">
            {ITEM_ACTION_TEXT.inAuction}
          </DropdownMenu.Label>
        ) : null}
        {entries.map((entry, index) => (
          <div key={entry}>
            {index > 0 && entry === "Burn" ? <DropdownMenu.Separator className={menuSeparatorClass} /> : null}
            <DropdownMenu.Item
              className={`${menuItemClass} ${entry === "Burn" ? "text-red-700 dark:text-red-400" : ""} data-[disabled]:cursor-not-allowed data-[disabled]:opacity-50`}
              disabled={locked && entry !== "Report"}
              onSelect={() => choose(entry)}
            >
              {entry}
            </DropdownMenu.Item>
          </div>
        ))}
      </Menu>
      {session ? (
        <LazyReportDialog
          open={open === "report"}
          onOpenChange={(next) => setOpen(next ? "report" : null)}
          targetType="item"
          targetId={`${nftCollection.contract_address}:${nft.tokenId}`}
        />
      ) : null}
      {open === "transfer" ? (
        <WithWallet fallback={null}>
          <TransferDialog item={item} open onOpenChange={(next) => setOpen(next ? "transfer" : null)} />
        </WithWallet>
      ) : null}
      {open === "burn" ? (
        <WithWallet fallback={null}>
          <BurnDialog item={item} open onOpenChange={(next) => setOpen(next ? "burn" : null)} />
        </WithWallet>
      ) : null}
    </>
  );
}

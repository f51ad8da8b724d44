import { displayName, type ItemResponse, type Person, shortAddress } from "@easel/common";
import * as DropdownMenu from "@radix-ui/react-dropdown-menu";
import { useEffect, useState } from "react";
import { Link } from "react-router";
import { toast } from "sonner";
import { formatEther } from "viem";
import { useAppConfig } from "../../../api/appConfig.tsx";
import { ApiError, errorMessage } from "../../../api/client.ts";
import { useSession } from "../../../auth/session.ts";
import { mediaUrl } from "../../../lib/media.ts";
import { shareTargets } from "../../../lib/share.ts";
import { usePageTitle } from "../../../lib/usePageTitle.ts";
import { Avatar } from "../../../ui/Avatar.tsx";
import { Button, buttonClass } from "../../../ui/Button.tsx";
import { MoreIcon } from "../../../ui/icons.tsx";
import { Loading } from "../../../ui/Loading.tsx";
import { menuContentClass, menuItemClass, menuSeparatorClass } from "../../../ui/menu.ts";
import { NotFound } from "../../../ui/NotFound.tsx";
import { UsdValue } from "../../../ui/UsdValue.tsx";
import { useWalletDialog } from "../../../wallet/walletDialogState.tsx";
import { useChainNow } from "../../../web3/chainTime.ts";
import { recordItemView } from "../../browse/api/browse.ts";
import { ActivityTable } from "../../browse/components/CollectionActivity.tsx";
import { FavoriteHeart } from "../../browse/components/FavoriteHeart.tsx";
import { endsIn } from "../../browse/components/NftCard.tsx";
import { RichText } from "../../browse/components/RichText.tsx";
import { ReportDialog } from "../../moderation/components/ReportDialog.tsx";
import { useItem, useLiveItem } from "../api/items.ts";
import { itemPath, tradePath, useItemKey } from "../lib/paths.ts";
import { ItemMedia } from "./ItemMedia.tsx";
import { BurnDialog, TransferDialog } from "./ItemTransactions.tsx";
import { PriceHistory } from "./PriceHistory.tsx";

type Item = ItemResponse["data"];

const ethText = (wei: string | null) => (wei === null ? "—" : `${formatEther(BigInt(wei))} ETH`);
const personName = (person: Person) => displayName(person);

/** /{creator}/{id} and /{creator}/{collection}/{id}: an item, what it is, who made and owns it, and its history. */
export function ItemPage() {
  const key = useItemKey();
  const query = useItem(key);
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
  return <ItemView item={query.data} />;
}

function ItemView({ item }: { item: Item }) {
  const { nft, nftCollection } = item;
  useLiveItem(item);
  const { explorerUrl } = useAppConfig();
  // One view per visit (the server keeps one per viewer a day); lazy items are not on chain yet.
  useEffect(() => {
    if (!nft.lazy || nft.status !== "lazy")
      recordItemView(nftCollection.contract_address, nft.tokenId).catch(() => {});
  }, [nftCollection.contract_address, nft.tokenId, nft.lazy, nft.status]);
  const collectionLink =
    nftCollection.kind === "default" ? null : `/collection/${encodeURIComponent(nftCollection.slug)}`;
  return (
    <article className="mx-auto flex w-full max-w-6xl flex-col gap-10 px-4 py-8">
      <div className="grid gap-8 lg:grid-cols-2">
        <ItemMedia media={nft.media} name={nft.name} />
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
          <ActionArea item={item} />
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
                      href={`/ipfs/${nft.uri_cid}`}
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
        </div>
      </div>
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
    </article>
  );
}

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

/** What this viewer may do with the item now, as links to the trading pages. */
function ActionArea({ item }: { item: Item }) {
  const { nft } = item;
  const { session } = useSession();
  const me = session?.address.toLowerCase() ?? null;
  const endMs = nft.auction?.endTime ? new Date(nft.auction.endTime).getTime() : null;
  const now = useChainNow(endMs !== null);
  const owner = nft.owner?.address ?? null;
  const isOwner = !!me && (nft.status === "lazy" ? me === nft.creator.address : me === owner);
  const actions: { to: string; label: string; primary?: boolean }[] = [];
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
    const ended = endMs !== null && endMs <= now;
    priceLabel = nft.auction.topBidWei ? "Top bid" : reserve ? "Reserve price" : "Starting price";
    priceWei = nft.auction.topBidWei ?? nft.auction.basePriceWei;
    const mayManage = !!me && me === nft.auction.seller;
    if (ended && nft.auction.topBidWei) {
      if (mayManage || me === nft.auction.topBidder)
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
  } else if (nft.status !== "burned") {
    priceLabel = "Last Price";
    priceWei = nft.lastPriceWei;
    const activeOffers = nft.offers.filter((o) => o.status === "active");
    if (isOwner) {
      actions.push({ to: tradePath("FixedPrice/set", item), label: "Set a Fixed Price", primary: true });
      // The chooser offers the auction kinds this item allows (the spec's permisionNft flags).
      if (item.permisionNft.auction || item.permisionNft.reserve)
        actions.push({ to: tradePath("Auction/select", item), label: "Start an Auction" });
      if (activeOffers.length) actions.push({ to: tradePath("acceptOffer", item), label: "Accept Offer" });
    } else {
      const mine = !!me && activeOffers.some((o) => o.address === me);
      actions.push({
        to: tradePath("offer", item),
        label: mine ? "Manage Offer" : "Make an Offer",
        primary: true,
      });
    }
  }
  const bestOffer = nft.offers.find((o) => o.status === "active");
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
        </div>
        {endMs !== null ? (
          <p className="text-sm font-semibold tabular-nums">{endsIn(endMs, now)}</p>
        ) : nft.auction?.kind === "reserve" ? (
          <p className="text-sm text-neutral-600 dark:text-neutral-400">
            Starts when the reserve price is met
          </p>
        ) : null}
      </div>
      {bestOffer && !nft.listing ? (
        <p className="text-sm text-neutral-600 dark:text-neutral-400">
          Best offer: <span className="font-semibold tabular-nums">{ethText(bestOffer.priceWei)}</span> by{" "}
          {shortAddress(bestOffer.address)}
        </p>
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
        </div>
      ) : actions.length ? (
        <ConnectToAct />
      ) : null}
    </section>
  );
}

function ConnectToAct() {
  const { openWalletDialog } = useWalletDialog();
  return (
    <Button onClick={openWalletDialog} className="self-start">
      Connect Wallet to buy, bid or offer
    </Button>
  );
}

/** Copy Link and the six share targets, each with 'Check out this item'. */
function ShareMenu({ item }: { item: Item }) {
  const url = typeof window === "undefined" ? "" : `${window.location.origin}${itemPath(item)}`;
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger className={buttonClass("ghost", "px-2.5")} aria-label="Share">
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
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="end"
          sideOffset={6}
          className={`${menuContentClass} max-h-[360px] overflow-y-auto`}
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
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}

/**
 * The item menu by status (browsing-and-accounts, "Item menu by status"): a lazy item offers others
 * Transfer and Report; a minted item offers its owner Transfer and Burn, and others Report. Owners are not
 * offered Report: one cannot report oneself.
 */
function ItemMenu({ item }: { item: Item }) {
  const { nft, nftCollection } = item;
  const { signedIn, session } = useSession();
  const { openWalletDialog } = useWalletDialog();
  const [open, setOpen] = useState<"report" | "transfer" | "burn" | null>(null);
  const me = session?.address.toLowerCase() ?? null;
  const lazy = nft.status === "lazy";
  const isOwner = !!me && (lazy ? me === nft.creator.address : me === nft.owner?.address);
  // Nobody reports their own item (the API refuses it), so the owner's menu has no Report.
  const entries: ("Transfer" | "Report" | "Burn")[] = lazy
    ? isOwner
      ? []
      : ["Transfer", "Report"]
    : isOwner
      ? ["Transfer", "Burn"]
      : ["Report"];
  if (entries.length === 0) return null;
  const choose = (entry: (typeof entries)[number]) => {
    if (!signedIn) return openWalletDialog();
    setOpen(entry === "Transfer" ? "transfer" : entry === "Burn" ? "burn" : "report");
  };
  return (
    <>
      <DropdownMenu.Root modal={false}>
        <DropdownMenu.Trigger className={buttonClass("ghost", "px-2.5")} aria-label="More">
          <MoreIcon />
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content
            align="end"
            sideOffset={6}
            className={`${menuContentClass} max-h-[270px] overflow-y-auto`}
          >
            {entries.map((entry, index) => (
              <div key={entry}>
                {index > 0 && entry === "Burn" ? (
                  <DropdownMenu.Separator className={menuSeparatorClass} />
                ) : null}
                <DropdownMenu.Item
                  className={`${menuItemClass} ${entry === "Burn" ? "text-red-700 dark:text-red-400" : ""}`}
                  onSelect={() => choose(entry)}
                >
                  {entry}
                </DropdownMenu.Item>
              </div>
            ))}
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
      {session ? (
        <ReportDialog
          open={open === "report"}
          onOpenChange={(next) => setOpen(next ? "report" : null)}
          targetType="item"
          targetId={`${nftCollection.contract_address}:${nft.tokenId}`}
        />
      ) : null}
      <TransferDialog
        item={item}
        open={open === "transfer"}
        onOpenChange={(next) => setOpen(next ? "transfer" : null)}
      />
      <BurnDialog item={item} open={open === "burn"} onOpenChange={(next) => setOpen(next ? "burn" : null)} />
    </>
  );
}

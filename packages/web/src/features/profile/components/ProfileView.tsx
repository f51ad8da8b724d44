import {
  type ChainCollectionItem,
  type ChainTokenItem,
  displayName,
  mediaUrl,
  SOCIAL_LABELS,
  SOCIAL_NETWORKS,
  shortAddress,
} from "@easel/common";
import * as DropdownMenu from "@radix-ui/react-dropdown-menu";
import { useQueryClient } from "@tanstack/react-query";
import { lazy, useEffect, useId, useState } from "react";
import { Link, useNavigate } from "react-router";
import { toast } from "sonner";
import { errorMessage } from "../../../api/client.ts";
import { useSession } from "../../../auth/session.ts";
import { monthYearText } from "../../../lib/dates.ts";
import { shareTargets } from "../../../lib/share.ts";
import { usePageTitle } from "../../../lib/usePageTitle.ts";
import { Avatar } from "../../../ui/Avatar.tsx";
import { Button, buttonClass } from "../../../ui/Button.tsx";
import { MoreIcon } from "../../../ui/icons.tsx";
import { Loading } from "../../../ui/Loading.tsx";
import { menuContentClass, menuItemClass } from "../../../ui/menu.ts";
import { useWalletDialog } from "../../../wallet/walletDialogState.tsx";
import { WithWallet } from "../../../web3/walletLoader.tsx";
import { nftPath } from "../../browse/components/NftCard.tsx";
import { ListSeveralLink } from "../../bulk-listing/components/ListSeveralLink.tsx";
import { BuyerCollectionOffers } from "../../collection-offers/components/BuyerCollectionOffers.tsx";
import { CreateItemLink } from "../../items/components/CreateItemLink.tsx";
import { LazyReportDialog } from "../../moderation/components/LazyReportDialog.tsx";
import { type ProfileData, profileKeys, useFollow, useProfile } from "../api/profile.ts";
import { useWatchlist } from "../api/watchlist.ts";
import { ProfileBanner } from "./ProfileBanner.tsx";
import { WatchlistPanel } from "./WatchlistPanel.tsx";

export const EMPTY_COLLECTED = "You don't have any NFTs yet. Get started by collecting your first artworks";

/** The profile page, for the signed-in owner (/profile) and for everyone else (/profile/{username}). */
export function ProfileView({ userkey }: { userkey: string }) {
  const navigate = useNavigate();
  const profile = useProfile(userkey);

  // Spec: a profile that cannot be loaded shows the server's message and goes home.
  useEffect(() => {
    if (profile.isError) {
      toast.error(errorMessage(profile.error));
      navigate("/", { replace: true });
    }
  }, [profile.isError, profile.error, navigate]);

  if (profile.isPending || profile.isError) {
    return <Loading label="Loading profile" size="page" />;
  }
  return <ProfileContent data={profile.data} />;
}

function ProfileContent({ data }: { data: ProfileData }) {
  const { user } = data;
  const name = displayName(data.user);
  usePageTitle(name);
  const joined = user.time_update ? new Date(user.time_update) : null;
  const handle = user.ens || (user.username ? `@${user.username}` : null);

  return (
    <div className="w-full">
      <ProfileBanner src={mediaUrl(user.banner)} />
      <div className="mx-auto w-full max-w-7xl px-4">
        <div className="-mt-16 flex flex-col gap-6 sm:-mt-20 md:flex-row md:items-end md:justify-between">
          <div className="flex flex-col gap-3">
            <Avatar
              address={user.address}
              src={mediaUrl(user.avatar)}
              className="size-32 border-4 border-white sm:size-40 dark:border-neutral-950"
            />
            <div>
              <h1 className="flex flex-wrap items-center gap-2 text-3xl font-bold tracking-tight">
                {name}
                {data.verifiedArtist ? (
                  <span className="inline-flex items-center gap-1 rounded-full bg-accent-100 px-2.5 py-0.5 text-xs font-semibold text-accent-700 dark:bg-accent-500/20 dark:text-accent-300">
                    <svg viewBox="0 0 24 24" className="size-3.5" aria-hidden="true">
                      <path d="m5 12 5 5 9-10" fill="none" stroke="currentColor" strokeWidth="3" />
                    </svg>
                    Verified artist
                  </span>
                ) : null}
              </h1>
              <p className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-neutral-600 dark:text-neutral-400">
                {/* Without a name the heading is the short address already: give the whole one here. */}
                <span title={user.address} className="font-mono break-all">
                  {name === shortAddress(user.address) ? user.address : shortAddress(user.address)}
                </span>
                {handle ? <span>{handle}</span> : null}
                {joined ? <span>Joined {monthYearText(joined)}</span> : null}
              </p>
            </div>
          </div>
          <ProfileActions data={data} />
        </div>

        <FollowCounts data={data} />
        {user.bio ? (
          <p className="mt-4 max-w-2xl whitespace-pre-line text-neutral-800 dark:text-neutral-200">
            {user.bio}
          </p>
        ) : null}
        <SocialLinks social={user.social} />
        <BuyerCollectionOffers address={user.address} isOwner={data.isOwner} />
        <ProfileTabs data={data} />
      </div>
    </div>
  );
}

function FollowCounts({ data }: { data: ProfileData }) {
  return (
    <dl className="mt-6 flex gap-6 text-sm">
      <div className="flex gap-1.5">
        <dt className="order-2 text-neutral-600 dark:text-neutral-400">Followers</dt>
        <dd className="font-semibold tabular-nums" data-testid="followers-count">
          {data.followersCount}
        </dd>
      </div>
      <div className="flex gap-1.5">
        <dt className="order-2 text-neutral-600 dark:text-neutral-400">Following</dt>
        <dd className="font-semibold tabular-nums" data-testid="following-count">
          {data.followingCount}
        </dd>
      </div>
    </dl>
  );
}

function SocialLinks({ social }: { social: Record<string, string> }) {
  const links = SOCIAL_NETWORKS.flatMap((network) => {
    const url = social[network];
    return url && /^https?:\/\//i.test(url) ? [[network, url] as const] : [];
  });
  if (links.length === 0) return null;
  return (
    <ul className="mt-4 flex flex-wrap gap-2" aria-label="Social links">
      {links.map(([network, url]) => (
        <li key={network}>
          <a
            href={url}
            target="_blank"
            rel="noopener noreferrer nofollow"
            className="inline-flex rounded-full border border-neutral-300 px-3 py-1 text-sm hover:border-accent-500 dark:border-neutral-700"
          >
            {SOCIAL_LABELS[network]}
          </a>
        </li>
      ))}
    </ul>
  );
}

function ProfileActions({ data }: { data: ProfileData }) {
  const { signedIn, session } = useSession();
  const { openWalletDialog } = useWalletDialog();
  const [reportOpen, setReportOpen] = useState(false);
  const { user, isOwner } = data;
  const pageUrl =
    typeof window === "undefined"
      ? ""
      : `${window.location.origin}/profile/${encodeURIComponent(user.username || user.address)}`;

  return (
    <div className="flex items-center gap-2 md:pb-2">
      {isOwner ? (
        // The spec labels this 'Edit Collection', but it opens the profile settings: it is named for what it does.
        <>
          <Link to={`/profile/edit/${user.username || user.address}`} className={buttonClass("primary")}>
            Edit Profile
          </Link>
          <ListSeveralLink />
        </>
      ) : (
        <FollowButton data={data} />
      )}
      <DropdownMenu.Root modal={false}>
        <DropdownMenu.Trigger className={buttonClass("secondary", "px-3")} aria-label="More">
          <MoreIcon />
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content align="end" sideOffset={6} className={menuContentClass}>
            {shareTargets(pageUrl, `Check out this profile on Easel`).map((target) => (
              <DropdownMenu.Item key={target.label} asChild className={menuItemClass}>
                <a href={target.href} target="_blank" rel="noopener noreferrer">
                  {target.label}
                </a>
              </DropdownMenu.Item>
            ))}
            {isOwner ? null : (
              <>
                <DropdownMenu.Separator className="my-1 h-px bg-neutral-200 dark:bg-neutral-800" />
                <DropdownMenu.Item
                  className={`${menuItemClass} text-red-700 dark:text-red-400`}
                  onSelect={() => (signedIn ? setReportOpen(true) : openWalletDialog())}
                >
                  Report
                </DropdownMenu.Item>
              </>
            )}
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
      {isOwner || !session ? null : (
        <LazyReportDialog
          open={reportOpen}
          onOpenChange={setReportOpen}
          targetType="profile"
          targetId={user.address}
        />
      )}
    </div>
  );
}

function FollowButton({ data }: { data: ProfileData }) {
  const { signedIn } = useSession();
  const { openWalletDialog } = useWalletDialog();
  const follow = useFollow();
  if (!signedIn) {
    return <Button onClick={openWalletDialog}>Follow</Button>;
  }
  return (
    <Button
      variant={data.isFollowing ? "secondary" : "primary"}
      aria-pressed={data.isFollowing}
      loading={follow.isPending}
      onClick={() =>
        follow.mutate(data.user.address, { onError: (error) => toast.error(errorMessage(error)) })
      }
    >
      {data.isFollowing ? "Following" : "Follow"}
    </Button>
  );
}

type ItemTabKey = "created" | "collection" | "collected" | "split";
type TabKey = ItemTabKey | "favorites";
const TABS: { key: TabKey; label: string }[] = [
  { key: "created", label: "Created" },
  { key: "collection", label: "Collection" },
  { key: "collected", label: "Collected" },
  { key: "split", label: "Split" },
];
/** The owner's own watchlist (issue 49 §3): their favourited items, shown to them alone. */
const OWNER_TABS: { key: TabKey; label: string }[] = [...TABS, { key: "favorites", label: "Favourites" }];

function ProfileTabs({ data }: { data: ProfileData }) {
  const [tab, setTab] = useState<TabKey>("created");
  const baseId = useId();
  const tabs = data.isOwner ? OWNER_TABS : TABS;
  return (
    <div className="mt-10 pb-16">
      <div
        role="tablist"
        aria-label="Profile items"
        // Four equal columns on a phone (every tab whole, nothing scrolled out of sight); natural widths above.
        // The owner's five do not fit a phone's width whole: their strip scrolls sideways, the page does not.
        className={`border-b border-neutral-200 sm:flex sm:gap-1 dark:border-neutral-800 ${
          data.isOwner ? "flex overflow-x-auto" : "grid grid-cols-4"
        }`}
        onKeyDown={(event) => {
          const index = tabs.findIndex((t) => t.key === tab);
          const delta = event.key === "ArrowRight" ? 1 : event.key === "ArrowLeft" ? -1 : 0;
          if (!delta) return;
          const next = tabs[(index + delta + tabs.length) % tabs.length];
          if (next) {
            setTab(next.key);
            document.getElementById(`${baseId}-${next.key}-tab`)?.focus();
          }
        }}
      >
        {tabs.map((t) => (
          <button
            key={t.key}
            id={`${baseId}-${t.key}-tab`}
            type="button"
            role="tab"
            aria-selected={tab === t.key}
            aria-controls={`${baseId}-${t.key}-panel`}
            tabIndex={tab === t.key ? 0 : -1}
            onClick={() => setTab(t.key)}
            className={`-mb-px flex min-w-0 flex-col items-center border-b-2 py-3 text-sm font-semibold sm:flex-row sm:gap-1 sm:px-4 ${
              data.isOwner ? "shrink-0 px-3" : "px-1"
            } ${
              tab === t.key
                ? "border-accent-600 text-accent-700 dark:text-accent-300"
                : "border-transparent text-neutral-600 hover:text-neutral-900 dark:text-neutral-400 dark:hover:text-neutral-100"
            }`}
          >
            {t.label}{" "}
            {t.key === "favorites" ? (
              <FavoritesCount />
            ) : (
              <span className="tabular-nums">{data[t.key].length}</span>
            )}
          </button>
        ))}
      </div>
      <div
        id={`${baseId}-${tab}-panel`}
        role="tabpanel"
        aria-labelledby={`${baseId}-${tab}-tab`}
        className="pt-6"
      >
        {tab === "favorites" ? <WatchlistPanel /> : <TabPanel tab={tab} data={data} />}
      </div>
    </div>
  );
}

/** How many items the owner favourited (their watchlist's total, once it has loaded). */
function FavoritesCount() {
  const total = useWatchlist().data?.pages[0]?.total;
  return <span className="tabular-nums">{total ?? ""}</span>;
}

function TabPanel({ tab, data }: { tab: ItemTabKey; data: ProfileData }) {
  const items = data[tab];
  const ownerAction =
    data.isOwner && tab === "created" ? (
      <CreateItemLink className={buttonClass("primary")} />
    ) : data.isOwner && tab === "collection" ? (
      <CreateCollectionButton />
    ) : null;

  return (
    <div className="flex flex-col gap-6">
      {ownerAction ? <div>{ownerAction}</div> : null}
      {items.length === 0 ? (
        <EmptyTab tab={tab} isOwner={data.isOwner} />
      ) : (
        <ul className="grid grid-cols-1 gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {tab === "collection"
            ? data.collection.map((collection) => (
                <li key={collection._id}>
                  <CollectionCard collection={collection} />
                </li>
              ))
            : data[tab].map((token) => (
                <li key={token._id}>
                  <TokenCard token={token} />
                </li>
              ))}
        </ul>
      )}
    </div>
  );
}

// The dialog deploys a contract: it loads with the wallet code, when opened.
const CreateCollectionDialog = lazy(() =>
  import("../../browse/components/CreateCollectionDialog.tsx").then((m) => ({
    default: m.CreateCollectionDialog,
  })),
);

function CreateCollectionButton() {
  const [open, setOpen] = useState(false);
  const queryClient = useQueryClient();
  return (
    <>
      <Button onClick={() => setOpen(true)}>Create New Collection</Button>
      {open ? (
        <WithWallet fallback={null}>
          <CreateCollectionDialog
            open
            onOpenChange={setOpen}
            onCreated={() => queryClient.invalidateQueries({ queryKey: profileKeys.all })}
          />
        </WithWallet>
      ) : null}
    </>
  );
}

function EmptyTab({ tab, isOwner }: { tab: ItemTabKey; isOwner: boolean }) {
  if (tab === "collected" || tab === "split") {
    return (
      <div className="rounded-2xl border border-dashed border-neutral-300 px-6 py-12 text-center dark:border-neutral-700">
        <p className="text-neutral-700 dark:text-neutral-300">{EMPTY_COLLECTED}</p>
        <Link to="/ExploreNFTs" className={buttonClass("secondary", "mt-4")}>
          Explore
        </Link>
      </div>
    );
  }
  return (
    <p className="rounded-2xl border border-dashed border-neutral-300 px-6 py-12 text-center text-neutral-600 dark:border-neutral-700 dark:text-neutral-400">
      {tab === "created"
        ? isOwner
          ? "You have not created any items yet."
          : "No items created yet."
        : isOwner
          ? "You have no collections yet."
          : "No collections yet."}
    </p>
  );
}

function TokenCard({ token }: { token: ChainTokenItem }) {
  const [failed, setFailed] = useState(false);
  const src = mediaUrl(token.image_cid);
  const to = nftPath(token);
  return (
    <article className="overflow-hidden rounded-2xl border border-neutral-200 dark:border-neutral-800">
      <Link to={to} className="block">
        {src && !failed ? (
          <img
            src={src}
            alt={token.name}
            loading="lazy"
            onError={() => setFailed(true)}
            className="h-[400px] w-full bg-neutral-100 object-cover dark:bg-neutral-900"
          />
        ) : (
          <div className="h-[400px] w-full bg-neutral-100 dark:bg-neutral-900" aria-hidden="true" />
        )}
        <div className="flex flex-col gap-1 p-4">
          <p className="font-semibold">{token.name}</p>
          {token.collection.name ? (
            <p className="text-sm text-neutral-600 dark:text-neutral-400">{token.collection.name}</p>
          ) : null}
          {token.status === "lazy" ? (
            <p className="text-xs font-medium text-violet-800 dark:text-violet-200">Minted at purchase</p>
          ) : null}
          {token.price ? (
            <p className="text-sm tabular-nums">
              <span className="text-neutral-600 dark:text-neutral-400">Price </span>
              {token.price} ETH
            </p>
          ) : null}
        </div>
      </Link>
    </article>
  );
}

function CollectionCard({ collection }: { collection: ChainCollectionItem }) {
  return (
    <article className="rounded-2xl border border-neutral-200 p-5 dark:border-neutral-800">
      <Link to={`/collection/${encodeURIComponent(collection.name)}`} className="block">
        <p className="text-lg font-semibold">{collection.name}</p>
        <p className="text-sm text-neutral-600 dark:text-neutral-400">
          {collection.symbol} · {collection.kind}
        </p>
        <p className="mt-2 text-sm tabular-nums">
          {collection.tokensCount} NFTs · {collection.ownersCount} owners
        </p>
      </Link>
    </article>
  );
}

import { type RouteObject, redirect } from "react-router";
import { RequireProfile } from "../auth/RequireProfile.tsx";
import { AppShell } from "./AppShell.tsx";
import { ErrorPage } from "./ErrorPage.tsx";
import { Layout, type RouteHandle } from "./Layout.tsx";

type PageModule = () => Promise<Pick<RouteObject, "Component">>;

/**
 * A trading page for an item, in both shapes of the spec: with the collection, and without it for items
 * of the default collection (no category).
 */
function itemRoutes(prefix: string, lazy: PageModule, { withoutCollection = true } = {}): RouteObject[] {
  const routes: RouteObject[] = [{ path: `${prefix}/:creator/:collection/:id`, lazy }];
  if (withoutCollection) routes.push({ path: `${prefix}/:creator/:id`, lazy });
  return routes;
}

const editHandle: RouteHandle = { hideHeader: true };

/** The marketplace filtered to live auctions, where /buyInAuction leads. */
export const LIVE_AUCTIONS_PATH = "/ExploreNFTs?status=liveAuction";

/** Pages that read the chain or send transactions: the wallet code loads beside them (web3/walletLoader.tsx). */
function withWallet(children: RouteObject[]): RouteObject {
  return { lazy: () => import("../web3/WalletOutlet.tsx"), children };
}

/**
 * The route table of both specs (browsing-and-accounts section 2, creation-and-trading section 2).
 * Every page is loaded on demand.
 */
export const routes: RouteObject[] = [
  {
    id: "root",
    Component: Layout,
    ErrorBoundary: ErrorPage,
    HydrateFallback: AppShell,
    children: [
      {
        // Page failures render inside the layout, with header and footer.
        ErrorBoundary: ErrorPage,
        children: [
          { index: true, lazy: () => import("../pages/Home.tsx") },
          { path: "ExploreNFTs", lazy: () => import("../pages/ExploreNFTs.tsx") },
          { path: "ExploreCollection", lazy: () => import("../pages/ExploreCollection.tsx") },
          { path: "activity", lazy: () => import("../pages/Activity.tsx") },
          { path: "collection/:name", lazy: () => import("../pages/Collection.tsx") },
          { path: "profile/:username", lazy: () => import("../pages/UserProfile.tsx") },
          { path: "contactUs", lazy: () => import("../pages/ContactUs.tsx") },
          { path: "FAQ", lazy: () => import("../pages/Faq.tsx") },
          { path: "help", lazy: () => import("../pages/HelpCenter.tsx") },
          { path: "newsletter/confirm", lazy: () => import("../pages/NewsletterConfirm.tsx") },
          { path: "email/confirm", lazy: () => import("../pages/EmailConfirm.tsx") },
          { path: "aboutUs", lazy: () => import("../pages/AboutUs.tsx") },
          { path: "privacyAndPolicy", lazy: () => import("../pages/PrivacyPolicy.tsx") },
          { path: "TermsOfServices", lazy: () => import("../pages/TermsOfService.tsx") },
          {
            path: "applyToJoin",
            lazy: () => import("../pages/ApplyToJoin.tsx"),
          },
          { path: "singleCollection", lazy: () => import("../pages/SingleCollection.tsx") },
          withWallet([{ path: "banned", lazy: () => import("../pages/Banned.tsx") }]),
          { path: "fallback", lazy: () => import("../pages/Fallback.tsx") },
          // The spec's /buyInAuction (creation-and-trading, C25): the live auctions, i.e. the marketplace so
          // filtered, kept shareable in its URL.
          { path: "buyInAuction", loader: () => redirect(LIVE_AUCTIONS_PATH) },
          {
            // Signed-in, active profiles only.
            Component: RequireProfile,
            children: [
              withWallet([
                { path: "mint", lazy: () => import("../pages/Mint.tsx") },
                { path: "profile", lazy: () => import("../pages/Profile.tsx") },
                {
                  path: "profile/edit/:userKey",
                  handle: editHandle,
                  lazy: () => import("../pages/ProfileEdit.tsx"),
                },
                {
                  path: "collections/edit/:username",
                  handle: editHandle,
                  lazy: () => import("../pages/CollectionEdit.tsx"),
                },
                { path: "notification", lazy: () => import("../pages/Notification.tsx") },
                // "List several" (issue 51): one signature for many signed listings.
                { path: "List/several", lazy: () => import("../pages/ListSeveral.tsx") },
                // Moderators only (the page checks header-data's isAdmin; the API answers 403 to others).
                { path: "admin", lazy: () => import("../pages/Admin.tsx") },
                ...itemRoutes("FixedPrice/set", () => import("../pages/FixedPriceSet.tsx")),
                ...itemRoutes("FixedPrice/buy", () => import("../pages/FixedPriceBuy.tsx")),
                ...itemRoutes("FixedPrice/manage", () => import("../pages/FixedPriceManage.tsx")),
                ...itemRoutes("Auction/settle", () => import("../pages/AuctionSettle.tsx")),
                ...itemRoutes("Auction/select", () => import("../pages/AuctionSelect.tsx")),
                ...itemRoutes("Auction/setStandard", () => import("../pages/AuctionSetStandard.tsx")),
                ...itemRoutes("Auction/setReserved", () => import("../pages/AuctionSetReserved.tsx")),
                ...itemRoutes("Auction/placeBid", () => import("../pages/AuctionPlaceBid.tsx")),
                ...itemRoutes(
                  "Auction/placeBidReservedAuction",
                  () => import("../pages/AuctionPlaceBidReserved.tsx"),
                ),
                ...itemRoutes("Auction/manage", () => import("../pages/AuctionManage.tsx")),
                ...itemRoutes("Auction/manageReserved", () => import("../pages/AuctionManageReserved.tsx")),
                // Lazy items always belong to a lazy collection.
                ...itemRoutes("lazyMint/buy", () => import("../pages/LazyMintBuy.tsx"), {
                  withoutCollection: false,
                }),
                ...itemRoutes("lazyMint/changePrice", () => import("../pages/LazyMintChangePrice.tsx"), {
                  withoutCollection: false,
                }),
                ...itemRoutes("offer", () => import("../pages/Offer.tsx")),
                ...itemRoutes("acceptOffer", () => import("../pages/AcceptOffer.tsx")),
                ...itemRoutes("auction/buyStandard", () => import("../pages/AuctionBuyStandard.tsx"), {
                  withoutCollection: false,
                }),
              ]),
            ],
          },
          // NFT detail: /{creator}/{tokenId} (default collection) and /{creator}/{collection}/{id}. It paints
          // from the API; its auction clock and transactions load the wallet code beside it.
          { path: ":creator/:id", lazy: () => import("../pages/NftDetail.tsx") },
          { path: ":creator/:collection/:id", lazy: () => import("../pages/NftDetail.tsx") },
          { path: "*", lazy: () => import("../pages/NotFound.tsx") },
        ],
      },
    ],
  },
];

import type {
  ProfileAuctionsResponse,
  ProfileCreditsResponse,
  ProfileOffersResponse,
  ProfileOpenOrdersResponse,
} from "@easel/common";
import { useQuery } from "@tanstack/react-query";
import { apiFetch } from "../../../api/client.ts";

/** The signed-in user's trading history and what they can still cancel, from the chain tables. */
export const tradeHistoryKeys = {
  all: ["trade-history"] as const,
  offers: ["trade-history", "offers"] as const,
  auctions: ["trade-history", "auctions"] as const,
  openOrders: ["trade-history", "open-orders"] as const,
  credits: ["trade-history", "credits"] as const,
};

/** GET /api/profile/offers: offers made and received. */
export function useOfferHistory() {
  return useQuery({
    queryKey: tradeHistoryKeys.offers,
    queryFn: async () => (await apiFetch<ProfileOffersResponse>("/api/profile/offers")).data,
    retry: false,
  });
}

/** GET /api/profile/auctions: auctions held and bid in. */
export function useAuctionHistory() {
  return useQuery({
    queryKey: tradeHistoryKeys.auctions,
    queryFn: async () => (await apiFetch<ProfileAuctionsResponse>("/api/profile/auctions")).data,
    retry: false,
  });
}

/** GET /api/profile/open-orders: active listings, auctions without bids and live offers. */
export function useOpenOrders() {
  return useQuery({
    queryKey: tradeHistoryKeys.openOrders,
    queryFn: async () => (await apiFetch<ProfileOpenOrdersResponse>("/api/profile/open-orders")).data,
  });
}

/** GET /api/profile/credits: payments held for the user (their wallet refused them), per contract. */
export function useCredits() {
  return useQuery({
    queryKey: tradeHistoryKeys.credits,
    queryFn: async () => (await apiFetch<ProfileCreditsResponse>("/api/profile/credits")).data.credits,
  });
}

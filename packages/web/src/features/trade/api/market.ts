import type { LazyMintVoucherResponse } from "@easel/common";
import { easelMarketAbi } from "@easel/contracts/abis";
import { useQueryClient } from "@tanstack/react-query";
import { useAccount, useBalance, useReadContract } from "wagmi";
import { apiFetch } from "../../../api/client.ts";
import { collectionContract, useMarket } from "../../../web3/contracts.ts";
import { browseKeys } from "../../browse/api/browse.ts";
import { itemKeys } from "../../items/api/items.ts";
import { tradeHistoryKeys } from "./history.ts";
import { signedListingKeys } from "./signedListings.ts";

type Address = `0x${string}`;

/** The market's minimum prices in wei (listing, offer, lazy mint, standard auction, reserve), read from chain. */
export function useMinimums() {
  const market = useMarket();
  return useReadContract({
    address: market?.address,
    abi: easelMarketAbi,
    chainId: market?.chainId,
    functionName: "minimums",
    query: { enabled: !!market },
  });
}

/** The market's fees and shortest auction, read from chain. */
export function useMarketConfig() {
  const market = useMarket();
  return useReadContract({
    address: market?.address,
    abi: easelMarketAbi,
    chainId: market?.chainId,
    functionName: "config",
    query: { enabled: !!market },
  });
}

/** The market's current offer on a token (`getOffer`: buyer, amount in wei, expiresAt in unix seconds). */
export function useChainOffer(collection: Address, tokenId: bigint) {
  const market = useMarket();
  return useReadContract({
    address: market?.address,
    abi: easelMarketAbi,
    chainId: market?.chainId,
    functionName: "getOffer",
    args: [collection, tokenId],
    query: { enabled: !!market },
  });
}

/** Whether `owner` has let the market move their tokens of `collection` (setApprovalForAll). */
export function useMarketApproval(collection: string, owner: string | undefined, chainId: number) {
  const market = useMarket();
  return useReadContract({
    ...collectionContract(collection as Address, chainId),
    functionName: "isApprovedForAll",
    args: owner && market ? [owner as Address, market.address] : undefined,
    query: { enabled: !!owner && !!market },
  });
}

/** The connected wallet's ETH balance. */
export function useWalletBalance() {
  const { address } = useAccount();
  return useBalance({ address, query: { enabled: !!address } });
}

/** POST /api/nft/buy-lazy-mint: a voucher for the signed-in buyer (valid a few minutes). */
export const fetchLazyMintVoucher = async (collection: string, nftId: string) =>
  (
    await apiFetch<LazyMintVoucherResponse>("/api/nft/buy-lazy-mint", {
      method: "POST",
      body: { collection, nft_id: nftId },
    })
  ).data.voucher;

/** PUT /api/nft/edit: a lazy item's new minting price. */
export const editLazyPrice = async (collection: string, nftId: string, price: bigint) =>
  (
    await apiFetch<{ data: { message: string } }>("/api/nft/edit", {
      method: "PUT",
      body: { collection, nft_id: nftId, price: price.toString() },
    })
  ).data;

/** After a trade: every list, page and history that shows items reads again. */
export function useRefreshAfterTrade() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: itemKeys.all }),
      queryClient.invalidateQueries({ queryKey: browseKeys.all }),
      queryClient.invalidateQueries({ queryKey: tradeHistoryKeys.all }),
      queryClient.invalidateQueries({ queryKey: signedListingKeys.all }),
    ]);
}

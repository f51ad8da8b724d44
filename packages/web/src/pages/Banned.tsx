import type { TradeRow } from "@easel/common";
import { shortAddress } from "@easel/common";
import { easelMarketAbi } from "@easel/contracts/abis";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "react-router";
import { toast } from "sonner";
import { useConfig } from "wagmi";
import { waitForTransactionReceipt, writeContract } from "wagmi/actions";
import { useAppConfig } from "../app/appConfig.tsx";
import { useSession } from "../auth/session.ts";
import { Button, buttonClass } from "../components/Button.tsx";
import { usePageTitle } from "../components/ComingSoon.tsx";
import { Spinner } from "../components/Spinner.tsx";
import { apiFetch, errorMessage } from "../lib/api.ts";
import { useMarketAddress } from "../lib/verifiedArtist.ts";
import { walletMessage } from "../lib/walletErrors.ts";
import { TradeTable } from "../settings/HistoryPanels.tsx";

type OpenOrders = { listings: TradeRow[]; auctions: TradeRow[]; offers: TradeRow[] };
type Job = {
  row: TradeRow;
  what: "listing" | "auction" | "offer";
  fn: "cancelSellOrder" | "invalidateAuction" | "cancelOffer";
  state: "waiting" | "running" | "done" | "failed";
  hash?: string;
};

const OPEN_ORDERS_KEY = ["profile", "open-orders"] as const;

/**
 * The banned notice. A suspended account keeps its wallet and tokens and can still take back what it
 * has on the market: its active listings, auctions without bids and live offers, read from the chain
 * tables (GET /api/profile/open-orders), each cancelled by one wallet transaction.
 */
export function Component() {
  usePageTitle("Account suspended");
  const { signedIn, profile } = useSession();
  const banned = signedIn && !!profile && !profile.active;
  return (
    <section className="mx-auto w-full max-w-4xl px-4 py-12 sm:py-16">
      <h1 className="text-3xl font-bold tracking-tight">Your account has been disabled</h1>
      <p className="mt-4 max-w-2xl text-neutral-700 dark:text-neutral-300">
        Easel's moderators have suspended this account for a breach of the{" "}
        <Link to="/TermsOfServices" className="text-accent-700 underline dark:text-accent-300">
          Terms of Service
        </Link>
        . You cannot list, sell, bid or make offers on Easel while it is suspended. Your tokens stay in your
        wallet, and you can still cancel your listings and offers.
      </p>
      <p className="mt-3 text-neutral-700 dark:text-neutral-300">
        If you think this is a mistake, tell us through the contact page.
      </p>
      <Link to="/contactUs" className={buttonClass("secondary", "mt-6")}>
        Contact Easel
      </Link>
      {banned ? <OpenOrdersSection /> : null}
    </section>
  );
}

function OpenOrdersSection() {
  const queryClient = useQueryClient();
  const wagmiConfig = useConfig();
  const appConfig = useAppConfig();
  const market = useMarketAddress();
  const [jobs, setJobs] = useState<Job[] | null>(null);
  const [running, setRunning] = useState(false);
  const orders = useQuery({
    queryKey: OPEN_ORDERS_KEY,
    queryFn: async () => (await apiFetch<{ data: OpenOrders }>("/api/profile/open-orders")).data,
  });

  if (orders.isPending) {
    return (
      <div role="status" aria-label="Loading your listings and offers" className="py-10">
        <Spinner className="size-6 text-neutral-400" />
      </div>
    );
  }
  if (orders.isError)
    return <p className="mt-8 text-red-700 dark:text-red-400">{errorMessage(orders.error)}</p>;
  const { listings, auctions, offers } = orders.data;
  const total = listings.length + auctions.length + offers.length;

  async function cancelAll() {
    if (!market || running) return;
    const list: Job[] = [
      ...listings.map((row) => ({
        row,
        what: "listing" as const,
        fn: "cancelSellOrder" as const,
        state: "waiting" as const,
      })),
      ...auctions.map((row) => ({
        row,
        what: "auction" as const,
        fn: "invalidateAuction" as const,
        state: "waiting" as const,
      })),
      ...offers.map((row) => ({
        row,
        what: "offer" as const,
        fn: "cancelOffer" as const,
        state: "waiting" as const,
      })),
    ];
    setJobs([...list]);
    setRunning(true);
    try {
      for (const [index, job] of list.entries()) {
        list[index] = { ...job, state: "running" };
        setJobs([...list]);
        try {
          const hash = await writeContract(wagmiConfig, {
            address: market,
            abi: easelMarketAbi,
            functionName: job.fn,
            args: [job.row.collection as `0x${string}`, BigInt(job.row.tokenId)],
            chainId: appConfig.chainId,
          });
          list[index] = { ...job, state: "running", hash };
          setJobs([...list]);
          const receipt = await waitForTransactionReceipt(wagmiConfig, { hash, chainId: appConfig.chainId });
          list[index] = { ...job, hash, state: receipt.status === "success" ? "done" : "failed" };
          setJobs([...list]);
        } catch (error) {
          list[index] = { ...job, state: "failed" };
          setJobs([...list]);
          toast.error(walletMessage(error));
          return;
        }
      }
      toast.success("Your listings and offers are cancelled.");
    } finally {
      setRunning(false);
      queryClient.invalidateQueries({ queryKey: ["profile"] });
    }
  }

  return (
    <div className="mt-10 flex flex-col gap-6">
      <h2 className="text-xl font-semibold">Your listings and offers</h2>
      {total === 0 ? (
        <p className="text-neutral-600 dark:text-neutral-400">
          You have no active listings, auctions or offers.
        </p>
      ) : (
        <>
          {listings.length > 0 ? <TradeTable rows={listings} caption="Listings" /> : null}
          {auctions.length > 0 ? <TradeTable rows={auctions} caption="Auctions without bids" /> : null}
          {offers.length > 0 ? <TradeTable rows={offers} caption="Offers" /> : null}
          <div>
            <Button onClick={cancelAll} loading={running} loadingText="Cancelling" disabled={!market}>
              Cancel listing & offers
            </Button>
            <p className="mt-2 text-sm text-neutral-600 dark:text-neutral-400">
              Your wallet asks you to confirm one transaction per item.
            </p>
          </div>
        </>
      )}
      {jobs ? (
        <ol className="flex flex-col gap-2 text-sm" aria-label="Cancellation progress">
          {jobs.map((job) => (
            <li key={`${job.what}:${job.row._id}`} className="flex flex-wrap items-center gap-2">
              <span className="w-20 font-semibold">
                {job.state === "running" ? <Spinner className="size-3" /> : null} {job.state}
              </span>
              <span>
                Cancel {job.what} of {job.row.name || `#${job.row.tokenId}`}
              </span>
              {job.hash ? (
                appConfig.explorerUrl ? (
                  <a
                    href={`${appConfig.explorerUrl}/tx/${job.hash}`}
                    target="_blank"
                    rel="noopener noreferrer"
                    className="font-mono text-xs underline"
                  >
                    {shortAddress(job.hash)}
                  </a>
                ) : (
                  <span className="font-mono text-xs break-all text-neutral-500">{job.hash}</span>
                )
              ) : null}
            </li>
          ))}
        </ol>
      ) : null}
    </div>
  );
}

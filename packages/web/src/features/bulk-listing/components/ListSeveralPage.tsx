import { mediaUrl } from "@easel/common";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Link, useSearchParams } from "react-router";
import { toast } from "sonner";
import { useAccount, useConfig } from "wagmi";
import { readContract } from "wagmi/actions";
import { useAppConfig } from "../../../api/appConfig.tsx";
import { useSession } from "../../../auth/session.ts";
import { ethText } from "../../../lib/eth.ts";
import { usePageTitle } from "../../../lib/usePageTitle.ts";
import { Button } from "../../../ui/Button.tsx";
import { FieldShell, inputClass } from "../../../ui/Field.tsx";
import { Loading } from "../../../ui/Loading.tsx";
import { collectionContract, useMarket } from "../../../web3/contracts.ts";
import { Stepper } from "../../../web3/tx/Stepper.tsx";
import { apiStep, signStep, type TransactionStep, writeStep } from "../../../web3/tx/steps.ts";
import { useTransactionFlow } from "../../../web3/tx/useTransactionFlow.ts";
import { useMinimums, useRefreshAfterTrade } from "../../trade/api/market.ts";
import {
  type ListableWork,
  listableKeys,
  postBulkListing,
  type BulkListingResult as Result,
  useListableWorks,
} from "../api/bulkListings.ts";
import { prepareBulkOrders, signBulkListing } from "../lib/bulkOrders.ts";
import { bulkPrices, type PriceMode } from "../lib/bulkPrices.ts";
import { BulkListingResult } from "./BulkListingResult.tsx";

export const LIST_SEVERAL_TEXT = {
  title: "List several",
  intro:
    "Choose works and their prices, then sign once in your wallet: no transaction, no gas. A collection not yet approved for Easel's market needs one approval first, once per collection.",
  allInCollection: "All I own in this collection",
  selectAll: "Select all",
  clear: "Clear",
  onePrice: "One price for all",
  eachPrice: "A price each",
  price: "Price (ETH)",
  priceOf: (name: string) => `Price of ${name} (ETH)`,
  listedAt: (price: string) => `Listed at ${ethText(price)} by signature`,
  none: "You own no work here that can be listed by signature (works in an auction or listed on chain are left out).",
  submit: (n: number) => (n === 1 ? "List 1 work" : `List ${n} works`),
  approve: (name: string) => `Approve ${name} for Easel's market`,
  sign: "Sign once in your wallet",
  post: "List on Easel",
  progress: "Listing several works",
  wrongWallet: "Your wallet's account is not the one you signed in with: switch back to list.",
  done: (n: number) => (n === 1 ? "1 work listed." : `${n} works listed.`),
} as const;

const keyOf = (w: Pick<ListableWork, "collection" | "tokenId">) =>
  `${w.collection.toLowerCase()}:${w.tokenId}`;

/**
 * "List several" (issue 51): the signed-in seller picks works (in one collection, or any they own), sets one
 * price for all or a price each, approves each collection once if needed, and signs once: one EIP-712
 * `BulkListing` over the tree of their orders, posted to the API, which lists each or says why not.
 */
export function ListSeveralPage() {
  const [params] = useSearchParams();
  const collection = params.get("collection")?.toLowerCase() ?? null;
  usePageTitle(LIST_SEVERAL_TEXT.title);
  const works = useListableWorks(collection);
  return (
    <section className="mx-auto w-full max-w-5xl px-4 py-12">
      <h1 className="text-3xl font-bold tracking-tight">{LIST_SEVERAL_TEXT.title}</h1>
      <p className="mt-2 max-w-3xl text-sm text-neutral-600 dark:text-neutral-400">
        {LIST_SEVERAL_TEXT.intro}
      </p>
      <div className="mt-8">
        {works.isPending ? (
          <Loading />
        ) : works.isError ? (
          <p role="alert" className="text-red-700 dark:text-red-400">
            {works.error.message}
          </p>
        ) : works.data.length === 0 ? (
          <p className="rounded-2xl border border-dashed border-neutral-300 px-6 py-12 text-center text-neutral-600 dark:border-neutral-700 dark:text-neutral-400">
            {LIST_SEVERAL_TEXT.none}
          </p>
        ) : (
          <ListSeveralForm works={works.data} inCollection={collection !== null} />
        )}
      </div>
    </section>
  );
}

function ListSeveralForm({ works, inCollection }: { works: ListableWork[]; inCollection: boolean }) {
  const wagmiConfig = useConfig();
  const { chainId } = useAppConfig();
  const market = useMarket();
  const { session } = useSession();
  const { address } = useAccount();
  const minimums = useMinimums();
  const flow = useTransactionFlow();
  const refresh = useRefreshAfterTrade();
  const queryClient = useQueryClient();
  const [selected, setSelected] = useState<Set<string>>(() => new Set());
  const [mode, setMode] = useState<PriceMode>("one");
  const [one, setOne] = useState("");
  const [each, setEach] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [outcome, setOutcome] = useState<{ result: Result; sent: ListableWork[] } | null>(null);

  if (outcome)
    return (
      <div className="flex flex-col gap-6">
        {/* The steps stay in view: the approval's transaction, and that the signature was asked once. */}
        {flow.steps ? <Stepper steps={flow.steps} label={LIST_SEVERAL_TEXT.progress} /> : null}
        <BulkListingResult
          result={outcome.result}
          sent={outcome.sent}
          onAgain={() => {
            setOutcome(null);
            setSelected(new Set());
            flow.reset();
          }}
        />
      </div>
    );

  const chosen = works.filter((w) => selected.has(keyOf(w)));
  const toggle = (key: string) =>
    setSelected((now) => {
      const next = new Set(now);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (flow.running) return;
    const { prices, errors: problems } = bulkPrices(
      chosen.map(keyOf),
      mode,
      one,
      each,
      minimums.data?.listing ?? 0n,
    );
    setErrors(problems);
    if (Object.keys(problems).length > 0) return;
    const seller = session?.address.toLowerCase();
    if (!market || !seller || address?.toLowerCase() !== seller) {
      toast.error(LIST_SEVERAL_TEXT.wrongWallet);
      return;
    }
    const sent = chosen;
    // Approval is read now, not from the page's load: one transaction per collection that lacks it.
    const collections = [...new Map(sent.map((w) => [w.collection.toLowerCase(), w])).values()];
    const approved = await Promise.all(
      collections.map((w) =>
        readContract(wagmiConfig, {
          ...collectionContract(w.collection as `0x${string}`, chainId),
          functionName: "isApprovedForAll",
          args: [seller as `0x${string}`, market.address],
        }),
      ),
    );
    let signed: Awaited<ReturnType<typeof signBulkListing>> | undefined;
    let result: Result | undefined;
    const steps: TransactionStep[] = [
      ...collections
        .filter((_, i) => !approved[i])
        .map((w) =>
          writeStep(LIST_SEVERAL_TEXT.approve(w.collectionName ?? w.collection), {
            ...collectionContract(w.collection as `0x${string}`, chainId),
            functionName: "setApprovalForAll",
            args: [market.address, true],
          }),
        ),
      signStep(LIST_SEVERAL_TEXT.sign, async () => {
        const orders = await prepareBulkOrders(
          wagmiConfig,
          market,
          seller as `0x${string}`,
          sent.map((w) => ({
            collection: w.collection,
            tokenId: w.tokenId,
            price: prices.get(keyOf(w)) as bigint,
          })),
        );
        signed = await signBulkListing(wagmiConfig, market, seller as `0x${string}`, orders);
      }),
      apiStep(LIST_SEVERAL_TEXT.post, async () => {
        if (!signed) throw new Error("The listings were not signed.");
        result = await postBulkListing(signed);
      }),
    ];
    const ok = await flow.run(steps);
    if (!ok || !result) return;
    toast.success(LIST_SEVERAL_TEXT.done(result.stored.length));
    setOutcome({ result, sent });
    void refresh();
    void queryClient.invalidateQueries({ queryKey: listableKeys.all });
  };

  const allSelected = chosen.length === works.length;
  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-6">
      <div className="flex flex-wrap items-center gap-2">
        <Button
          variant="secondary"
          onClick={() => setSelected(allSelected ? new Set() : new Set(works.map(keyOf)))}
          aria-pressed={allSelected}
        >
          {allSelected
            ? LIST_SEVERAL_TEXT.clear
            : inCollection
              ? LIST_SEVERAL_TEXT.allInCollection
              : LIST_SEVERAL_TEXT.selectAll}
        </Button>
        <span className="text-sm tabular-nums text-neutral-600 dark:text-neutral-400">
          {chosen.length} / {works.length}
        </span>
      </div>
      {errors.selection ? (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {errors.selection}
        </p>
      ) : null}
      <fieldset className="flex flex-wrap gap-4">
        <legend className="sr-only">How to price them</legend>
        {(["one", "each"] as const).map((value) => (
          <label key={value} className="flex items-center gap-2 text-sm font-semibold">
            <input type="radio" name="price-mode" checked={mode === value} onChange={() => setMode(value)} />
            {value === "one" ? LIST_SEVERAL_TEXT.onePrice : LIST_SEVERAL_TEXT.eachPrice}
          </label>
        ))}
      </fieldset>
      {mode === "one" ? (
        <PriceInput label={LIST_SEVERAL_TEXT.price} value={one} onChange={setOne} error={errors.one} />
      ) : null}
      <ul className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {works.map((work) => {
          const key = keyOf(work);
          const src = mediaUrl(work.imageCid);
          const checked = selected.has(key);
          return (
            <li
              key={key}
              className={`overflow-hidden rounded-2xl border ${
                checked ? "border-accent-600" : "border-neutral-200 dark:border-neutral-800"
              }`}
            >
              <label className="block cursor-pointer">
                {src ? (
                  <img
                    src={src}
                    alt={work.name}
                    loading="lazy"
                    className="h-48 w-full bg-neutral-100 object-cover dark:bg-neutral-900"
                  />
                ) : (
                  <div className="h-48 w-full bg-neutral-100 dark:bg-neutral-900" aria-hidden="true" />
                )}
                <span className="flex items-center gap-2 p-3">
                  <input type="checkbox" checked={checked} onChange={() => toggle(key)} />
                  <span className="font-semibold">{work.name}</span>
                </span>
              </label>
              <div className="flex flex-col gap-2 px-3 pb-3 text-sm">
                {work.collectionName && !inCollection ? (
                  <span className="text-neutral-600 dark:text-neutral-400">{work.collectionName}</span>
                ) : null}
                {work.signedPriceWei ? (
                  <span className="text-neutral-600 dark:text-neutral-400">
                    {LIST_SEVERAL_TEXT.listedAt(work.signedPriceWei)}
                  </span>
                ) : null}
                {work.path ? (
                  <Link to={work.path} className="text-accent-700 dark:text-accent-300">
                    View
                  </Link>
                ) : null}
                {mode === "each" && checked ? (
                  <PriceInput
                    label={LIST_SEVERAL_TEXT.priceOf(work.name)}
                    value={each[key] ?? ""}
                    onChange={(text) => setEach((now) => ({ ...now, [key]: text }))}
                    error={errors[key]}
                  />
                ) : null}
              </div>
            </li>
          );
        })}
      </ul>
      {flow.steps ? <Stepper steps={flow.steps} label={LIST_SEVERAL_TEXT.progress} /> : null}
      <div>
        <Button type="submit" disabled={!market} loading={flow.running}>
          {LIST_SEVERAL_TEXT.submit(chosen.length)}
        </Button>
      </div>
    </form>
  );
}

function PriceInput({
  label,
  value,
  onChange,
  error,
}: {
  label: string;
  value: string;
  onChange: (text: string) => void;
  error: string | undefined;
}) {
  return (
    <FieldShell label={label} error={error} className="max-w-xs">
      {({ id, describedBy, invalid }) => (
        <input
          id={id}
          inputMode="decimal"
          className={inputClass}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          aria-invalid={invalid}
          aria-describedby={describedBy}
        />
      )}
    </FieldShell>
  );
}

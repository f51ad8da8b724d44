import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { toast } from "sonner";
import { useConfig } from "wagmi";
import { errorMessage } from "../../../api/client.ts";
import { ethText, parseEthAmount } from "../../../lib/eth.ts";
import { Button } from "../../../ui/Button.tsx";
import { inputClass } from "../../../ui/Field.tsx";
import { Modal } from "../../../ui/Modal.tsx";
import { UsdValue } from "../../../ui/UsdValue.tsx";
import { chainNowSeconds } from "../../../web3/chainTime.ts";
import { useMarket } from "../../../web3/contracts.ts";
import { Stepper } from "../../../web3/tx/Stepper.tsx";
import { writeStep } from "../../../web3/tx/steps.ts";
import { useTransactionFlow } from "../../../web3/tx/useTransactionFlow.ts";
import { useMinimums, useWalletBalance } from "../../trade/api/market.ts";
import { OfferExpiryChoice } from "../../trade/components/OfferScreens.tsx";
import { EthField } from "../../trade/components/TradeScreen.tsx";
import { DEFAULT_OFFER_DAYS, type OfferExpiryDays, offerExpiry } from "../../trade/lib/offer.ts";
import { collectionOfferKeys, postTraitRoot } from "../api/collectionOffers.ts";
import {
  ANY_TOKEN_ROOT,
  collectionOfferPriceError,
  MAX_COLLECTION_OFFER_QUANTITY,
  offerTotal,
  quantityOf,
  COLLECTION_OFFER_TEXT as T,
} from "../lib/collectionOffer.ts";

export type CollectionOfferTarget = {
  /** The collection's address and name. */
  collection: { address: string; name: string };
  /** A trait offer's property; none: an offer on any work of the collection. */
  trait?: { type: string; value: string };
};

/**
 * "Make collection offer" and "Offer on every work with this trait": a price for each work, how many works, and
 * an expiry, sent as one `makeCollectionOffer(offer, quantity)` with `price × quantity` through the app's runner.
 * A trait offer first asks the server for its token root (the works with the trait) and says how many it covers.
 */
export function CollectionOfferDialog({
  target,
  me,
  open,
  onOpenChange,
}: {
  target: CollectionOfferTarget;
  /** The signed-in buyer's address. */
  me: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const { collection, trait } = target;
  const flow = useTransactionFlow();
  const [done, setDone] = useState(false);
  const title = trait ? T.traitTitle(trait.type, trait.value) : T.title(collection.name);
  return (
    <Modal open={open} onOpenChange={onOpenChange} title={title} locked={flow.running} className="max-w-lg">
      {flow.steps ? (
        <div className="flex flex-col gap-4">
          <Stepper steps={flow.steps} label="Your collection offer" />
          {done ? <p className="text-sm font-semibold">{T.made}</p> : null}
          {!flow.running ? (
            <Button variant="secondary" onClick={() => onOpenChange(false)}>
              Close
            </Button>
          ) : null}
        </div>
      ) : (
        <OfferForm target={target} me={me} flow={flow} onMade={() => setDone(true)} />
      )}
    </Modal>
  );
}

function OfferForm({
  target,
  me,
  flow,
  onMade,
}: {
  target: CollectionOfferTarget;
  me: string;
  flow: ReturnType<typeof useTransactionFlow>;
  onMade: () => void;
}) {
  const { collection, trait } = target;
  const id = useId();
  const market = useMarket();
  const wagmiConfig = useConfig();
  const queryClient = useQueryClient();
  const minimums = useMinimums();
  const balance = useWalletBalance();
  // The server finds the works with the trait; the client never sends ids.
  const root = useQuery({
    queryKey: [
      ...collectionOfferKeys.all,
      "root",
      collection.address.toLowerCase(),
      trait?.type,
      trait?.value,
    ],
    queryFn: () =>
      postTraitRoot({
        collection: collection.address,
        traitType: trait?.type ?? "",
        traitValue: trait?.value ?? "",
      }),
    enabled: !!trait,
    retry: false,
    staleTime: 60_000,
  });
  const [priceText, setPriceText] = useState("");
  const [quantityText, setQuantityText] = useState("1");
  const [days, setDays] = useState<OfferExpiryDays>(DEFAULT_OFFER_DAYS);
  const [errors, setErrors] = useState<{ price?: string | null; quantity?: string | null }>({});
  const [checking, setChecking] = useState(false);
  const minimum = minimums.data?.offer ?? null;
  const tokenRoot = trait ? root.data?.tokenRoot : ANY_TOKEN_ROOT;
  const ready = !!market && minimum !== null && !!tokenRoot;
  const price = parseEthAmount(priceText);
  const total = offerTotal(priceText, quantityText);

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!ready || !market || !tokenRoot || checking || flow.running) return;
    const priceProblem = collectionOfferPriceError(priceText, minimum);
    const quantity = quantityOf(quantityText);
    const quantityProblem = "error" in quantity ? quantity.error : null;
    setErrors({ price: priceProblem, quantity: quantityProblem });
    if (priceProblem || "error" in quantity || price === null) return;
    // The expiry counts from the chain's latest block.
    setChecking(true);
    const now = await chainNowSeconds(wagmiConfig, market.chainId).catch(() =>
      BigInt(Math.floor(Date.now() / 1000)),
    );
    setChecking(false);
    const offer = {
      buyer: me as `0x${string}`,
      collection: collection.address as `0x${string}`,
      tokenRoot: tokenRoot as `0x${string}`,
      price,
      expiresAt: offerExpiry(now, days),
    };
    const ok = await flow.run([
      writeStep(T.confirming, {
        ...market,
        functionName: "makeCollectionOffer",
        args: [offer, quantity.quantity],
        value: price * quantity.quantity,
      }),
    ]);
    if (!ok) return flow.reset();
    onMade();
    toast.success(T.made);
    void queryClient.invalidateQueries({ queryKey: collectionOfferKeys.all });
  };

  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-5">
      {trait ? (
        <p className="text-sm text-neutral-700 dark:text-neutral-300" aria-live="polite">
          {root.isPending ? (
            T.findingWorks
          ) : root.isError ? (
            <span className="text-red-700 dark:text-red-400">{errorMessage(root.error)}</span>
          ) : (
            T.covers(root.data.tokenIds.length)
          )}
        </p>
      ) : (
        <p className="text-sm text-neutral-700 dark:text-neutral-300">{T.anyWork(collection.name)}</p>
      )}
      <div className="flex justify-between text-sm">
        <span className="text-neutral-600 dark:text-neutral-400">Your balance</span>
        <span className="tabular-nums">{balance.data ? ethText(balance.data.value, 5) : "—"}</span>
      </div>
      <EthField
        id={`${id}-price`}
        label={T.priceLabel}
        value={priceText}
        onChange={setPriceText}
        error={errors.price ?? null}
        wei={price}
        hint={minimum === null ? "Reading the market's minimum..." : `At least ${ethText(minimum)}.`}
      />
      <div className="flex flex-col gap-1.5">
        <label htmlFor={`${id}-quantity`} className="text-sm font-semibold">
          {T.quantityLabel}
        </label>
        <input
          id={`${id}-quantity`}
          inputMode="numeric"
          autoComplete="off"
          value={quantityText}
          onChange={(event) => setQuantityText(event.target.value)}
          aria-invalid={errors.quantity ? true : undefined}
          aria-describedby={`${id}-quantity-hint${errors.quantity ? ` ${id}-quantity-error` : ""}`}
          className={`${inputClass} max-w-32`}
        />
        <p id={`${id}-quantity-hint`} className="text-xs text-neutral-600 dark:text-neutral-400">
          {T.quantityHint(MAX_COLLECTION_OFFER_QUANTITY)}
        </p>
        {errors.quantity ? (
          <p id={`${id}-quantity-error`} role="alert" className="text-sm text-red-700 dark:text-red-400">
            {errors.quantity}
          </p>
        ) : null}
      </div>
      <OfferExpiryChoice name={`${id}-expiry`} days={days} onChange={setDays} />
      {total !== null ? (
        <div className="flex flex-col gap-1 rounded-xl border border-neutral-200 p-3 dark:border-neutral-800">
          <div className="flex items-baseline justify-between gap-3">
            <span className="text-sm font-semibold">{T.total}</span>
            <span className="flex items-baseline gap-2 font-semibold tabular-nums">
              <span>{ethText(total)}</span> <UsdValue wei={total} className="text-xs" />
            </span>
          </div>
          <p className="text-xs text-neutral-600 dark:text-neutral-400">{T.totalHint}</p>
        </div>
      ) : null}
      <Button type="submit" disabled={!ready || !priceText} loading={checking}>
        {T.send}
      </Button>
    </form>
  );
}

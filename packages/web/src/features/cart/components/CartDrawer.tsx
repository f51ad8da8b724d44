import type { CartItem, CartQuote } from "@easel/common";
import { mediaUrl } from "@easel/common";
import { useEffect, useState } from "react";
import { Link } from "react-router";
import { ethText } from "../../../lib/eth.ts";
import { Button } from "../../../ui/Button.tsx";
import { Drawer } from "../../../ui/Drawer.tsx";
import { UsdValue } from "../../../ui/UsdValue.tsx";
import { type CartWork, cartStore, useCart, workKey } from "../lib/cartStore.ts";
import { Checkout } from "./Checkout.tsx";

export const CART_TEXT = {
  title: "Your cart",
  checkoutTitle: "Checkout",
  empty: "Your cart is empty. Add works for sale at a fixed price from their cards or pages.",
  remove: (name: string) => `Remove ${name} from your cart`,
  removeShort: "Remove",
  total: "Total",
  checkout: "Check out",
  clear: "Empty the cart",
  dismiss: "Dismiss",
  priceNow: (was: string) => `Was ${was} when you added it`,
  notices: "Changes to your cart",
} as const;

/**
 * The cart drawer: each work with its price in ETH and USD (the latest quote's price when it has one), the
 * total, and the checkout in the same drawer. The sentences of works that left the cart stay until dismissed.
 */
export function CartDrawer({
  open,
  onOpenChange,
  buyer,
  notices,
  onDismissNotices,
  quote,
  onRecheck,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  buyer: string;
  notices: readonly string[];
  onDismissNotices: () => void;
  quote: CartQuote | null;
  onRecheck: () => void;
}) {
  const works = useCart(buyer);
  // The works checked out: fixed when the checkout opens, so a recheck meanwhile does not change what is shown.
  const [checkout, setCheckout] = useState<CartItem[] | null>(null);
  const checkingOut = checkout !== null;
  const [running, setRunning] = useState(false);
  // Opening the drawer rechecks the cart.
  // biome-ignore lint/correctness/useExhaustiveDependencies: on opening only
  useEffect(() => {
    if (open) onRecheck();
    else setCheckout(null);
  }, [open]);
  const quoted = new Map((quote?.lines ?? []).map((line) => [workKey(line), line]));
  const priceOf = (work: CartWork) => quoted.get(workKey(work))?.priceWei ?? work.priceWei;
  const total = works.reduce((sum, work) => sum + BigInt(priceOf(work)), 0n);
  return (
    <Drawer
      open={open}
      onOpenChange={onOpenChange}
      title={checkingOut ? CART_TEXT.checkoutTitle : CART_TEXT.title}
      locked={running}
    >
      {notices.length > 0 ? (
        <section
          aria-label={CART_TEXT.notices}
          role="status"
          className="mb-4 flex flex-col gap-2 rounded-xl bg-amber-50 p-3 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-100"
        >
          <ul className="flex flex-col gap-1">
            {notices.map((notice) => (
              <li key={notice}>{notice}</li>
            ))}
          </ul>
          <button type="button" onClick={onDismissNotices} className="self-start text-xs underline">
            {CART_TEXT.dismiss}
          </button>
        </section>
      ) : null}
      {checkout ? (
        <Checkout
          buyer={buyer}
          items={checkout}
          onBack={() => setCheckout(null)}
          onRunningChange={setRunning}
          onBought={(outcome) =>
            cartStore.remove(
              buyer,
              outcome.bought.map((work) => workKey(work)),
            )
          }
        />
      ) : works.length === 0 ? (
        <p className="text-sm text-neutral-600 dark:text-neutral-400">{CART_TEXT.empty}</p>
      ) : (
        <>
          <ul className="flex flex-col gap-2" aria-label="Works in your cart">
            {works.map((work) => (
              <CartLine
                key={workKey(work)}
                work={work}
                priceWei={priceOf(work)}
                note={
                  quoted.get(workKey(work))?.unavailable === "refused"
                    ? quoted.get(workKey(work))?.message
                    : null
                }
                onRemove={() => cartStore.remove(buyer, [workKey(work)])}
              />
            ))}
          </ul>
          <div className="mt-4 flex flex-wrap items-baseline justify-between gap-2 border-t border-neutral-200 pt-4 dark:border-neutral-800">
            <span className="font-semibold">{CART_TEXT.total}</span>
            <span className="flex flex-wrap items-baseline gap-2">
              <span className="text-lg font-semibold tabular-nums" data-testid="cart-total">
                {ethText(total)}
              </span>
              <UsdValue wei={total} className="text-sm" />
            </span>
          </div>
          <div className="mt-4 flex flex-wrap gap-2">
            <Button
              className="flex-1"
              onClick={() =>
                setCheckout(works.map((w) => ({ collection: w.collection, tokenId: w.tokenId })))
              }
            >
              {CART_TEXT.checkout}
            </Button>
            <Button variant="ghost" onClick={() => cartStore.clear(buyer)}>
              {CART_TEXT.clear}
            </Button>
          </div>
        </>
      )}
    </Drawer>
  );
}

function CartLine({
  work,
  priceWei,
  note,
  onRemove,
}: {
  work: CartWork;
  priceWei: string;
  note: string | null | undefined;
  onRemove: () => void;
}) {
  const src = mediaUrl(work.image);
  const changed = priceWei !== work.priceWei;
  return (
    <li className="flex min-w-0 items-center gap-3 rounded-xl border border-neutral-200 p-2 dark:border-neutral-800">
      {src ? (
        <img src={src} alt={work.name} className="size-14 shrink-0 rounded-lg object-cover" loading="lazy" />
      ) : (
        <span className="size-14 shrink-0 rounded-lg bg-neutral-100 dark:bg-neutral-800" />
      )}
      <span className="flex min-w-0 flex-1 flex-col">
        <Link to={work.path} className="truncate text-sm font-semibold hover:underline">
          {work.name}
        </Link>
        <span className="flex flex-wrap items-baseline gap-x-2 text-sm">
          <span className="font-semibold tabular-nums">{ethText(priceWei)}</span>
          <UsdValue wei={priceWei} className="text-xs" />
        </span>
        {changed ? (
          <span className="text-xs text-neutral-600 dark:text-neutral-400">
            {CART_TEXT.priceNow(ethText(work.priceWei))}
          </span>
        ) : null}
        {note ? <span className="text-xs text-red-700 dark:text-red-400">{note}</span> : null}
      </span>
      <Button
        variant="ghost"
        className="shrink-0 px-2"
        onClick={onRemove}
        aria-label={CART_TEXT.remove(work.name)}
      >
        {CART_TEXT.removeShort}
      </Button>
    </li>
  );
}

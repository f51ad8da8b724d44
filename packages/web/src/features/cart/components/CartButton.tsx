import { useQuery } from "@tanstack/react-query";
import { useEffect, useMemo, useState } from "react";
import { toast } from "sonner";
import { useSession } from "../../../auth/session.ts";
import { cartQuoteQueryOptions } from "../api/cart.ts";
import { cartStore, useCart } from "../lib/cartStore.ts";
import { reconcile } from "../lib/reconcile.ts";
import { CartDrawer } from "./CartDrawer.tsx";

/** How often a cart is rechecked while the app is open (the drawer rechecks when it opens). */
const RECHECK_MS = 60_000;

export const CART_BUTTON_TEXT = {
  label: (n: number) => `Cart, ${n} ${n === 1 ? "work" : "works"}`,
} as const;

/**
 * The header's cart: a button with the count that opens the drawer. While the wallet has works in its cart they
 * are rechecked on the server now and then: one sold or unlisted meanwhile leaves the cart, and a sentence says so
 * (here as a toast, and in the drawer until it is dismissed).
 */
export function CartButton() {
  const { session } = useSession();
  const me = session?.address.toLowerCase() ?? null;
  const works = useCart(me);
  const [open, setOpen] = useState(false);
  const [notices, setNotices] = useState<string[]>([]);
  const items = useMemo(() => works.map((w) => ({ collection: w.collection, tokenId: w.tokenId })), [works]);
  const quote = useQuery({
    ...cartQuoteQueryOptions(me ?? "", items),
    enabled: !!me && items.length > 0,
    refetchInterval: RECHECK_MS,
    refetchOnMount: "always",
  });
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once per new answer
  useEffect(() => {
    if (!me || !quote.data) return;
    const { remove, notices: said } = reconcile(cartStore.list(me), quote.data);
    if (remove.length === 0) return;
    cartStore.remove(me, remove);
    setNotices((was) => [...was, ...said]);
    for (const notice of said) toast(notice);
  }, [quote.data]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new wallet starts without the last one's notices
  useEffect(() => setNotices([]), [me]);
  if (!me) return null;
  return (
    <>
      <button
        type="button"
        aria-label={CART_BUTTON_TEXT.label(works.length)}
        onClick={() => setOpen(true)}
        className="relative rounded-lg p-2 text-neutral-700 hover:bg-neutral-100 dark:text-neutral-200 dark:hover:bg-neutral-800"
      >
        <svg viewBox="0 0 24 24" className="size-6" aria-hidden="true">
          <path
            d="M3 4h2l2.4 11.2a1 1 0 0 0 1 .8h9.2a1 1 0 0 0 1-.8L20 8H6.2"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
            strokeLinecap="round"
            strokeLinejoin="round"
          />
          <circle cx="9" cy="20" r="1.5" fill="currentColor" />
          <circle cx="17" cy="20" r="1.5" fill="currentColor" />
        </svg>
        {works.length > 0 ? (
          <span
            aria-hidden="true"
            data-testid="cart-count"
            className="absolute -top-1 -right-1 flex h-5 min-w-5 items-center justify-center rounded-full bg-accent-600 px-1 text-[11px] font-bold text-white tabular-nums ring-2 ring-white dark:ring-neutral-950"
          >
            {works.length}
          </span>
        ) : null}
      </button>
      <CartDrawer
        open={open}
        onOpenChange={setOpen}
        buyer={me}
        notices={notices}
        onDismissNotices={() => setNotices([])}
        quote={quote.data ?? null}
        onRecheck={() => void quote.refetch()}
      />
    </>
  );
}

import { MAX_CART_ITEMS } from "@easel/common";
import { toast } from "sonner";
import { useSession } from "../../../auth/session.ts";
import { buttonClass } from "../../../ui/Button.tsx";
import { useWalletDialog } from "../../../wallet/walletDialogState.tsx";
import { type CartWork, cartStore, useCart, workKey } from "../lib/cartStore.ts";

export const ADD_TO_CART_TEXT = {
  add: "Add to cart",
  remove: "Remove from cart",
  added: (name: string) => `${name} is in your cart.`,
  full: `A cart holds at most ${MAX_CART_ITEMS} works.`,
} as const;

/**
 * "Add to cart" for a work for sale at a fixed price (on chain or by signature); nothing for the viewer's own
 * work. In the cart already, it takes it out. Signed out, it opens the wallet dialog (a cart is per wallet).
 */
export function AddToCartButton({
  work,
  seller,
  className = "",
  compact = false,
}: {
  work: CartWork;
  /** Who sells it (its owner): the viewer's own work gets no button. */
  seller: string | null;
  className?: string;
  compact?: boolean;
}) {
  const { session } = useSession();
  const { openWalletDialog } = useWalletDialog();
  const me = session?.address.toLowerCase() ?? null;
  const works = useCart(me);
  if (me && seller?.toLowerCase() === me) return null;
  const inCart = works.some((w) => workKey(w) === workKey(work));
  const toggle = () => {
    if (!me) return openWalletDialog();
    if (inCart) return cartStore.remove(me, [workKey(work)]);
    if (cartStore.add(me, work)) toast.success(ADD_TO_CART_TEXT.added(work.name));
    else toast.error(ADD_TO_CART_TEXT.full);
  };
  return (
    <button
      type="button"
      aria-pressed={inCart}
      aria-label={
        compact ? `${inCart ? ADD_TO_CART_TEXT.remove : ADD_TO_CART_TEXT.add}: ${work.name}` : undefined
      }
      onClick={toggle}
      className={buttonClass("secondary", `${compact ? "px-2 py-1 text-xs" : ""} ${className}`)}
    >
      {inCart ? ADD_TO_CART_TEXT.remove : ADD_TO_CART_TEXT.add}
    </button>
  );
}

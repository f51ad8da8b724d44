import { useState } from "react";
import { toast } from "sonner";
import { errorMessage } from "../../../api/client.ts";
import { useSession } from "../../../auth/session.ts";
import { useWalletDialog } from "../../../wallet/walletDialogState.tsx";
import { useFavoriteItem } from "../api/browse.ts";

/**
 * The heart of an item, with its count: pressed at once and put back if the server refuses. Visitors are
 * asked to connect a wallet first.
 */
export function FavoriteHeart({
  collection,
  tokenId,
  name,
  favorite,
  favorites,
  className = "",
}: {
  collection: string;
  tokenId: string;
  name: string;
  favorite: boolean;
  favorites: number;
  className?: string;
}) {
  const { signedIn } = useSession();
  const { openWalletDialog } = useWalletDialog();
  const mutation = useFavoriteItem();
  // What the person last asked for, shown until the server's answer replaces it.
  const [optimistic, setOptimistic] = useState<{ favorite: boolean; favorites: number } | null>(null);
  const shown = optimistic ?? { favorite, favorites };

  const toggle = () => {
    if (!signedIn) {
      openWalletDialog();
      return;
    }
    const next = { favorite: !shown.favorite, favorites: shown.favorites + (shown.favorite ? -1 : 1) };
    setOptimistic(next);
    mutation.mutate(
      { collection, tokenId, favorite: next.favorite },
      {
        onSuccess: ({ data }) => setOptimistic(data),
        onError: (error) => {
          setOptimistic(null);
          toast.error(errorMessage(error));
        },
      },
    );
  };

  return (
    <button
      type="button"
      onClick={toggle}
      aria-pressed={shown.favorite}
      aria-label={`Favourite ${name}`}
      className={`inline-flex items-center gap-1 rounded-full px-2.5 py-1 text-sm tabular-nums ${className}`}
    >
      <svg viewBox="0 0 24 24" className="size-4" aria-hidden="true">
        <path
          d="M12 21s-7.5-4.6-9.5-9.2C1.1 8.4 3.3 5 6.7 5c2 0 3.4 1.1 4.3 2.5h2C13.9 6.1 15.3 5 17.3 5c3.4 0 5.6 3.4 4.2 6.8C19.5 16.4 12 21 12 21z"
          fill={shown.favorite ? "currentColor" : "none"}
          stroke="currentColor"
          strokeWidth="1.8"
          className={shown.favorite ? "text-red-600" : ""}
        />
      </svg>
      <span>{shown.favorites}</span>
    </button>
  );
}

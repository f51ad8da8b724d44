import { sameAddress } from "@easel/common";
import { useEffect, useRef, useState } from "react";
import { useAppConfig } from "../api/appConfig.tsx";
import { useWalletLoader } from "../web3/walletLoader.tsx";
import { countdownSeconds } from "./connectedAt.ts";
import { useSession } from "./session.ts";
import { endServerSession } from "./useSignOut.ts";

/** What happens at zero: the session is cleared and the page reloads. Replaceable in tests. */
export const accountChangeEffects = {
  expire: async () => {
    await endServerSession();
    window.location.reload();
  },
};

/**
 * While signed in, watches the wallet: when it changes account or network (or disconnects from the site),
 * a visible countdown runs (5 s, 8 s right after connecting); at zero the session is cleared and the page
 * reloads. Switching back before zero cancels it.
 */
type Connection = { status: string; address?: string; chainId?: number };

/**
 * The wallet's connection while `watching` (signed in), through the app's wallet loader: a signed-out
 * visitor loads no wallet code for it.
 */
function useWalletConnection(watching: boolean): Connection {
  const loadWallet = useWalletLoader();
  const [connection, setConnection] = useState<Connection>({ status: "reconnecting" });
  useEffect(() => {
    if (!watching) return;
    let live = true;
    let stop = () => {};
    void Promise.all([loadWallet(), import("wagmi/actions")]).then(
      ([config, wagmi]) => {
        if (!live) return;
        const pick = (c: Connection): Connection => ({
          status: c.status,
          address: c.address,
          chainId: c.chainId,
        });
        setConnection(pick(wagmi.getConnection(config)));
        stop = wagmi.watchConnection(config, { onChange: (c) => setConnection(pick(c)) });
      },
      () => {
        // The wallet code did not load: nothing to watch, and no reason to end the session (a wallet
        // boundary that needs it says so and offers to load it again).
      },
    );
    return () => {
      live = false;
      stop();
    };
  }, [loadWallet, watching]);
  return connection;
}

export function AccountWatcher() {
  const config = useAppConfig();
  const { session } = useSession();
  const connection = useWalletConnection(session !== null);
  const seenMatching = useRef(false);

  let mismatch = false;
  if (session) {
    if (connection.status === "connected") {
      const matches =
        sameAddress(connection.address, session.address) && connection.chainId === config.chainId;
      if (matches) seenMatching.current = true;
      mismatch = !matches;
    } else if (connection.status === "disconnected" && seenMatching.current) {
      mismatch = true;
    }
  }

  const [deadline, setDeadline] = useState<number | null>(null);
  const [now, setNow] = useState(() => Date.now());

  useEffect(() => {
    if (mismatch) {
      // One clock reading for both, so the countdown starts at exactly 5 (or 8) seconds.
      const at = Date.now();
      const seconds = countdownSeconds();
      setDeadline((current) => current ?? at + seconds * 1000);
      setNow(at);
    } else {
      setDeadline(null);
    }
  }, [mismatch]);

  useEffect(() => {
    if (deadline === null) return;
    const timer = window.setInterval(() => setNow(Date.now()), 250);
    return () => window.clearInterval(timer);
  }, [deadline]);

  const remaining = deadline === null ? null : Math.max(0, Math.ceil((deadline - now) / 1000));

  const expired = remaining === 0;
  useEffect(() => {
    if (expired) void accountChangeEffects.expire();
  }, [expired]);

  if (remaining === null) return null;
  return (
    <div
      role="alert"
      className="fixed inset-x-0 bottom-4 z-50 mx-auto flex w-[calc(100vw-2rem)] max-w-lg items-center gap-3 rounded-xl border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950 shadow-lg dark:border-amber-700 dark:bg-amber-950 dark:text-amber-50"
    >
      <span className="flex size-9 shrink-0 items-center justify-center rounded-full bg-amber-200 font-bold tabular-nums dark:bg-amber-800">
        {remaining}
      </span>
      <p>
        Your wallet changed its account or network. You will be signed out in{" "}
        <span className="font-semibold tabular-nums">{remaining}</span> s; switch back to keep your session.
      </p>
    </div>
  );
}

import { useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { useNavigate } from "react-router";
import { apiFetch } from "../api/client.ts";
import { clearLocalState } from "../lib/storage.ts";
import { useWalletLoader } from "../web3/walletLoader.tsx";
import { SESSION_QUERY_KEY, SIGNED_OUT } from "./session.ts";

/**
 * Ends the server session, or every session of the wallet on every device; a failure (already signed
 * out, server down) is not worth a toast.
 */
export async function endServerSession(everywhere = false): Promise<void> {
  try {
    await apiFetch(everywhere ? "/api/auth/logout-everywhere" : "/api/auth/logout", {
      method: "POST",
      body: {},
    });
  } catch {
    // The cookie expires on its own; the local state is cleared anyway.
  }
}

/**
 * Disconnect: ends the server session, disconnects the wallet, clears the app's local and session
 * storage and the query cache, then goes home.
 */
export function useSignOut() {
  const queryClient = useQueryClient();
  const loadWallet = useWalletLoader();
  const navigate = useNavigate();
  return useCallback(
    async (options: { everywhere?: boolean } = {}) => {
      // The server session ends before the app shows itself signed out, so nothing can still use it once
      // "Connect Wallet" is back; and the app is signed out before the wallet disconnects, so the account
      // watcher does not see the wallet leaving as an account change.
      await endServerSession(options.everywhere);
      queryClient.setQueryData(SESSION_QUERY_KEY, SIGNED_OUT);
      try {
        const [wagmiConfig, { disconnect }] = await Promise.all([loadWallet(), import("wagmi/actions")]);
        await disconnect(wagmiConfig);
      } catch {
        // Already disconnected.
      }
      clearLocalState();
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== SESSION_QUERY_KEY[0] });
      queryClient.setQueryData(SESSION_QUERY_KEY, SIGNED_OUT);
      navigate("/");
    },
    [queryClient, loadWallet, navigate],
  );
}

import type { Page } from "@playwright/test";
import { createWalletClient, type Hex, http } from "viem";
import { mnemonicToAccount } from "viem/accounts";

/** anvil's public development mnemonic (the same keys the local chain funds). */
const ANVIL_MNEMONIC = "test test test test test test test test test test test junk";

export type WalletCall = { method: string; params: unknown };

/**
 * Injects an EIP-1193 provider as `window.ethereum`, the way MetaMask does, backed by one of
 * anvil's accounts. Signing happens in the test process; everything else goes to anvil.
 * The app therefore runs its real injected-wallet code path.
 */
export async function injectWallet(page: Page, options: { rpcUrl: string; accountIndex?: number }) {
  const account = mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: options.accountIndex ?? 1 });
  const wallet = createWalletClient({ account, transport: http(options.rpcUrl) });
  const calls: WalletCall[] = [];
  let chainId = "0x1"; // a wallet starts on mainnet; the app must ask it to switch

  await page.exposeFunction("__easelWalletRequest", async (method: string, params: unknown[] = []) => {
    calls.push({ method, params });
    switch (method) {
      case "eth_requestAccounts":
      case "eth_accounts":
        return [account.address];
      case "eth_chainId":
        return chainId;
      case "net_version":
        return String(Number(chainId));
      case "wallet_switchEthereumChain": {
        const [{ chainId: wanted }] = params as [{ chainId: string }];
        if (wanted.toLowerCase() !== "0x7a69")
          throw Object.assign(new Error("Unrecognized chain ID"), { code: 4902 });
        chainId = "0x7a69";
        return { __event: "chainChanged", value: chainId };
      }
      case "wallet_addEthereumChain":
        return null;
      case "personal_sign": {
        const [data] = params as [Hex, string];
        return account.signMessage({ message: { raw: data } });
      }
      case "eth_sendTransaction": {
        const [tx] = params as [{ to: Hex; data?: Hex; value?: Hex; gas?: Hex }];
        return wallet.sendTransaction({
          chain: null,
          to: tx.to,
          data: tx.data,
          value: tx.value ? BigInt(tx.value) : undefined,
        });
      }
      default: {
        const response = await fetch(options.rpcUrl, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
        });
        const body = (await response.json()) as {
          result?: unknown;
          error?: { message: string; code: number };
        };
        if (body.error) throw Object.assign(new Error(body.error.message), { code: body.error.code });
        return body.result;
      }
    }
  });

  await page.addInitScript(() => {
    type Listener = (...args: unknown[]) => void;
    const listeners = new Map<string, Set<Listener>>();
    const emit = (event: string, value: unknown) => {
      for (const listener of listeners.get(event) ?? []) listener(value);
    };
    const request = window as unknown as {
      __easelWalletRequest: (method: string, params?: unknown) => Promise<unknown>;
    };
    const provider = {
      isMetaMask: true,
      async request({ method, params }: { method: string; params?: unknown }) {
        try {
          const result = (await request.__easelWalletRequest(method, params)) as {
            __event?: string;
            value?: unknown;
          };
          if (result && typeof result === "object" && "__event" in result && result.__event) {
            setTimeout(() => emit(result.__event as string, result.value), 0);
            return null;
          }
          return result;
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          const code = /Unrecognized chain/.test(message) ? 4902 : -32603;
          throw Object.assign(new Error(message), { code });
        }
      },
      on(event: string, listener: Listener) {
        if (!listeners.has(event)) listeners.set(event, new Set());
        listeners.get(event)?.add(listener);
        return provider;
      },
      removeListener(event: string, listener: Listener) {
        listeners.get(event)?.delete(listener);
        return provider;
      },
    };
    (window as unknown as { ethereum: typeof provider }).ethereum = provider;
  });

  return { address: account.address, calls };
}

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
  const calls: WalletCall[] = [];

  await page.exposeFunction("__easelWalletRequest", walletHandler(options.rpcUrl, account, calls));

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

/**
 * A wallet's answers to EIP-1193 requests, backed by an anvil account: accounts, chain switching and signing
 * happen here (in the test process), everything else goes to anvil.
 */
function walletHandler(
  rpcUrl: string,
  account: ReturnType<typeof mnemonicToAccount>,
  calls: WalletCall[],
  /** Whether the page may already see the account (`eth_accounts`) before asking for it. */
  authorized = true,
) {
  const wallet = createWalletClient({ account, transport: http(rpcUrl) });
  let connected = authorized;
  let chainId = "0x1"; // a wallet starts on mainnet; the app must ask it to switch
  return async (method: string, params: unknown[] = []) => {
    calls.push({ method, params });
    switch (method) {
      case "eth_requestAccounts":
        connected = true;
        return [account.address];
      case "eth_accounts":
        return connected ? [account.address] : [];
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
      case "eth_signTypedData_v4": {
        // An EIP-712 signature (a signed listing): no transaction, nothing sent to the chain.
        const [, typedData] = params as [string, string];
        const { domain, types, primaryType, message } = JSON.parse(typedData);
        const { EIP712Domain: _, ...rest } = types;
        return account.signTypedData({ domain, types: rest, primaryType, message });
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
        const response = await fetch(rpcUrl, {
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
  };
}

export type AnnouncedWallet = { name: string; rdns: string; icon: string; accountIndex: number };

/**
 * Several browser wallets that announce themselves the EIP-6963 way (and none sets `window.ethereum`): each
 * answers `eip6963:requestProvider` with its `eip6963:announceProvider` event, its own name, icon and rdns, and
 * its own anvil account. Like a wallet the site was never connected to, each shows its account only when asked.
 */
export async function announceWallets(page: Page, options: { rpcUrl: string; wallets: AnnouncedWallet[] }) {
  const result: { address: `0x${string}`; calls: WalletCall[] }[] = [];
  for (const [index, announced] of options.wallets.entries()) {
    const account = mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: announced.accountIndex });
    const calls: WalletCall[] = [];
    await page.exposeFunction(
      `__easelWallet${index}Request`,
      walletHandler(options.rpcUrl, account, calls, false),
    );
    result.push({ address: account.address, calls });
  }
  await page.addInitScript(
    (wallets) => {
      type Listener = (...args: unknown[]) => void;
      const details = wallets.map((info, index) => {
        const listeners = new Map<string, Set<Listener>>();
        const bridge = window as unknown as Record<
          string,
          (method: string, params?: unknown) => Promise<unknown>
        >;
        const provider = {
          async request({ method, params }: { method: string; params?: unknown }) {
            try {
              const result = (await bridge[`__easelWallet${index}Request`]?.(method, params)) as {
                __event?: string;
                value?: unknown;
              };
              if (result && typeof result === "object" && "__event" in result && result.__event) {
                const { __event: event, value } = result;
                setTimeout(() => {
                  for (const listener of listeners.get(event) ?? []) listener(value);
                }, 0);
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
        const uuid = `00000000-0000-4000-8000-00000000000${index}`;
        return Object.freeze({
          info: Object.freeze({ uuid, name: info.name, icon: info.icon, rdns: info.rdns }),
          provider,
        });
      });
      const announce = () => {
        for (const detail of details)
          window.dispatchEvent(new CustomEvent("eip6963:announceProvider", { detail }));
      };
      window.addEventListener("eip6963:requestProvider", announce);
      announce();
    },
    options.wallets.map(({ name, rdns, icon }) => ({ name, rdns, icon })),
  );
  return result;
}

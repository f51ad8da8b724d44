import {
  type Address,
  type Chain,
  createWalletClient,
  type EIP1193RequestFn,
  getAddress,
  type Hex,
  hexToBigInt,
  hexToNumber,
  http,
  numberToHex,
  ProviderRpcError,
  SwitchChainError,
  type TypedDataDefinition,
} from "viem";
import type { HDAccount } from "viem/accounts";
import { createConnector } from "wagmi";
import { STORAGE_KEYS } from "../lib/storage.ts";
import {
  ANVIL_ADDRESSES,
  ANVIL_MNEMONIC,
  DEV_WALLET_ID,
  selectDevAccount,
  storedAccountIndex,
} from "./devAccounts.ts";

type RpcTransaction = {
  from?: Address;
  to?: Address | null;
  data?: Hex;
  value?: Hex;
  gas?: Hex;
  gasPrice?: Hex;
  maxFeePerGas?: Hex;
  maxPriorityFeePerGas?: Hex;
  nonce?: Hex;
};

type DevProvider = { request: EIP1193RequestFn };

/**
 * A wagmi connector for the local chain only: an in-page EIP-1193 provider whose account is one of anvil's
 * test accounts, derived from the public test mnemonic. Messages, typed data and transactions are signed in
 * the page with viem's local account; transactions are sent raw through the chain's RPC. Every other
 * request is forwarded to the RPC. No browser extension is involved.
 */
export function devWallet({ chain }: { chain: Chain }) {
  const rpcUrl = chain.rpcUrls.default.http[0];
  if (!rpcUrl) throw new Error("The Dev wallet needs an RPC URL for the local chain");
  const rpc = http(rpcUrl, { retryCount: 0 })({ chain });
  let account: HDAccount | null = null;
  let accountIndex: number | null = null;
  let provider: DevProvider | null = null;

  function connectedIndex(): number {
    const index = storedAccountIndex();
    if (index === null)
      throw new ProviderRpcError(new Error("Dev wallet is not connected"), {
        code: 4100,
        shortMessage: "Dev wallet is not connected",
      });
    return index;
  }

  /** The connected test account's address (listed, so nothing is derived to show it). */
  function currentAddress(): Address {
    return ANVIL_ADDRESSES[connectedIndex()] as Address;
  }

  // The key derivation (BIP-39 word list, BIP-32) loads only when the Dev wallet signs.
  async function currentAccount(): Promise<HDAccount> {
    const index = connectedIndex();
    if (!account || accountIndex !== index) {
      const { mnemonicToAccount } = await import("viem/accounts");
      account = mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: index });
      accountIndex = index;
    }
    return account;
  }

  async function sendTransaction(tx: RpcTransaction): Promise<Hex> {
    const signer = await currentAccount();
    const client = createWalletClient({ account: signer, chain, transport: http(rpcUrl, { retryCount: 0 }) });
    const common = {
      account: signer,
      chain,
      to: tx.to ?? undefined,
      data: tx.data,
      value: tx.value ? hexToBigInt(tx.value) : undefined,
      gas: tx.gas ? hexToBigInt(tx.gas) : undefined,
      nonce: tx.nonce ? hexToNumber(tx.nonce) : undefined,
    };
    if (tx.gasPrice) return client.sendTransaction({ ...common, gasPrice: hexToBigInt(tx.gasPrice) });
    return client.sendTransaction({
      ...common,
      maxFeePerGas: tx.maxFeePerGas ? hexToBigInt(tx.maxFeePerGas) : undefined,
      maxPriorityFeePerGas: tx.maxPriorityFeePerGas ? hexToBigInt(tx.maxPriorityFeePerGas) : undefined,
    });
  }

  const request = (async ({ method, params }: { method: string; params?: unknown }) => {
    const args = (params ?? []) as unknown[];
    switch (method) {
      case "eth_accounts":
        return storedAccountIndex() === null ? [] : [currentAddress()];
      case "eth_requestAccounts":
        return [currentAddress()];
      case "eth_chainId":
        return numberToHex(chain.id);
      case "net_version":
        return String(chain.id);
      case "personal_sign":
        return (await currentAccount()).signMessage({ message: { raw: args[0] as Hex } });
      case "eth_signTypedData_v4": {
        const typed = typeof args[1] === "string" ? JSON.parse(args[1]) : args[1];
        return (await currentAccount()).signTypedData(typed as TypedDataDefinition);
      }
      case "eth_sendTransaction":
        return sendTransaction(args[0] as RpcTransaction);
      case "wallet_switchEthereumChain":
      case "wallet_addEthereumChain": {
        const wanted = (args[0] as { chainId?: Hex } | undefined)?.chainId;
        if (wanted && hexToNumber(wanted) !== chain.id) {
          throw new ProviderRpcError(new Error("The Dev wallet only knows the local chain"), {
            code: 4902,
            shortMessage: "The Dev wallet only knows the local chain",
          });
        }
        return null;
      }
      default:
        return rpc.request({ method, params } as never);
    }
  }) as EIP1193RequestFn;

  return createConnector<DevProvider>((config) => ({
    id: DEV_WALLET_ID,
    name: "Dev wallet",
    type: "devWallet",
    async connect({ chainId, withCapabilities } = {}) {
      if (chainId !== undefined && chainId !== chain.id) {
        throw new SwitchChainError(new Error("The Dev wallet only knows the local chain"));
      }
      if (storedAccountIndex() === null) selectDevAccount(0);
      const address = currentAddress();
      return {
        accounts: (withCapabilities ? [{ address, capabilities: {} }] : [address]) as never,
        chainId: chain.id,
      };
    },
    async disconnect() {
      window.localStorage.removeItem(STORAGE_KEYS.devWalletAccount);
      account = null;
      accountIndex = null;
    },
    async getAccounts() {
      const index = storedAccountIndex();
      return index === null ? [] : [getAddress(currentAddress())];
    },
    async getChainId() {
      return chain.id;
    },
    async getProvider() {
      provider ??= { request };
      return provider;
    },
    async isAuthorized() {
      return storedAccountIndex() !== null;
    },
    async switchChain({ chainId }) {
      const target = config.chains.find((x) => x.id === chainId);
      if (!target || chainId !== chain.id) {
        throw new SwitchChainError(new Error("The Dev wallet only knows the local chain"));
      }
      return target;
    },
    onAccountsChanged(accounts) {
      if (accounts.length === 0) this.onDisconnect();
      else config.emitter.emit("change", { accounts: accounts.map((x) => getAddress(x)) });
    },
    onChainChanged(chainId) {
      config.emitter.emit("change", { chainId: Number(chainId) });
    },
    onDisconnect() {
      config.emitter.emit("disconnect");
    },
  }));
}

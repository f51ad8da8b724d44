import type { EIP1193Provider } from "viem";

declare global {
  interface Window {
    /** The injected EIP-1193 provider of a browser wallet (MetaMask), when there is one. */
    ethereum?: EIP1193Provider;
  }
}

import type { NonceResponse } from "@easel/common";
import type { Address } from "viem";
import { createSiweMessage } from "viem/siwe";
import type { Config } from "wagmi";
import { signMessage } from "wagmi/actions";
import { apiFetch } from "../api/client.ts";

/**
 * Sign-In with Ethereum (EIP-4361): asks the server for a nonce, builds the message for this site and the
 * configured chain, has the wallet sign it (personal_sign) and sends both to the server, which sets the
 * httpOnly session cookie.
 */
export async function signInWithEthereum(
  wagmiConfig: Config,
  { address, chainId }: { address: Address; chainId: number },
): Promise<void> {
  const { nonce, statement } = await apiFetch<NonceResponse>("/api/auth/nonce");
  const message = createSiweMessage({
    address,
    chainId,
    domain: window.location.host,
    uri: window.location.origin,
    version: "1",
    statement,
    nonce,
    issuedAt: new Date(),
  });
  const signature = await signMessage(wagmiConfig, { account: address, message });
  await apiFetch("/api/auth/verify", { method: "POST", body: { message, signature } });
}

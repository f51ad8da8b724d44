import { easelMarketAbi } from "@easel/contracts/abis";
import { useState } from "react";
import { toast } from "sonner";
import { isAddress } from "viem";
import { useConfig, useReadContract } from "wagmi";
import { waitForTransactionReceipt, writeContract } from "wagmi/actions";
import { useAppConfig } from "../app/appConfig.tsx";
import { Button } from "../components/Button.tsx";
import { TextField } from "../components/Field.tsx";
import { useMarketAddress } from "../lib/verifiedArtist.ts";
import { walletMessage } from "../lib/walletErrors.ts";

/**
 * Block or unblock a collection, or one token of it, on the market contract. The moderator's own wallet
 * sends the operator transaction; the indexer then records the block for the API.
 */
export function Blocks() {
  const wagmiConfig = useConfig();
  const appConfig = useAppConfig();
  const market = useMarketAddress();
  const [collection, setCollection] = useState("");
  const [tokenId, setTokenId] = useState("");
  const [busy, setBusy] = useState(false);
  const [hash, setHash] = useState<string | null>(null);
  const validCollection = isAddress(collection.trim());
  const validToken = tokenId.trim() === "" || /^\d+$/.test(tokenId.trim());
  const address = collection.trim() as `0x${string}`;
  const token = tokenId.trim() === "" ? null : BigInt(tokenId.trim());

  const collectionBlocked = useReadContract({
    address: market,
    abi: easelMarketAbi,
    functionName: "isCollectionBlocked",
    args: [address],
    query: { enabled: !!market && validCollection },
  });
  const tokenBlocked = useReadContract({
    address: market,
    abi: easelMarketAbi,
    functionName: "isTokenBlocked",
    args: [address, token ?? 0n],
    query: { enabled: !!market && validCollection && token !== null },
  });
  const blocked = token === null ? collectionBlocked.data : tokenBlocked.data;

  async function send(next: boolean) {
    if (!market || !validCollection || !validToken) return;
    setBusy(true);
    setHash(null);
    try {
      const sent =
        token === null
          ? await writeContract(wagmiConfig, {
              address: market,
              abi: easelMarketAbi,
              functionName: "setCollectionBlocked",
              args: [address, next],
              chainId: appConfig.chainId,
            })
          : await writeContract(wagmiConfig, {
              address: market,
              abi: easelMarketAbi,
              functionName: "setTokenBlocked",
              args: [address, token, next],
              chainId: appConfig.chainId,
            });
      setHash(sent);
      const receipt = await waitForTransactionReceipt(wagmiConfig, {
        hash: sent,
        chainId: appConfig.chainId,
      });
      if (receipt.status !== "success") throw new Error("The transaction failed.");
      toast.success(`${token === null ? "Collection" : `Token ${token}`} ${next ? "blocked" : "unblocked"}.`);
      await Promise.all([collectionBlocked.refetch(), tokenBlocked.refetch()]);
    } catch (error) {
      toast.error(walletMessage(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      className="flex max-w-xl flex-col gap-4"
      aria-label="Block a collection or token"
      onSubmit={(event) => event.preventDefault()}
    >
      <TextField
        label="Collection address"
        placeholder="0x…"
        value={collection}
        onChange={(event) => setCollection(event.target.value)}
        error={collection && !validCollection ? "Invalid address" : undefined}
      />
      <TextField
        label="Token id (leave empty for the whole collection)"
        inputMode="numeric"
        value={tokenId}
        onChange={(event) => setTokenId(event.target.value)}
        error={validToken ? undefined : "Token id must be a whole number"}
      />
      {validCollection && validToken && blocked !== undefined ? (
        <p role="status" className="text-sm">
          {token === null ? "This collection" : `Token ${token}`} is {blocked ? "blocked" : "not blocked"}.
        </p>
      ) : null}
      <div className="flex gap-2">
        <Button
          variant="danger"
          loading={busy}
          disabled={!validCollection || !validToken || blocked === true}
          onClick={() => send(true)}
        >
          Block
        </Button>
        <Button
          variant="secondary"
          disabled={busy || !validCollection || !validToken || blocked === false}
          onClick={() => send(false)}
        >
          Unblock
        </Button>
      </div>
      {hash ? (
        appConfig.explorerUrl ? (
          <a
            href={`${appConfig.explorerUrl}/tx/${hash}`}
            target="_blank"
            rel="noopener noreferrer"
            className="font-mono text-xs underline"
          >
            {hash}
          </a>
        ) : (
          <p className="font-mono text-xs break-all text-neutral-500">Transaction {hash}</p>
        )
      ) : null}
    </form>
  );
}

import { useState } from "react";
import { toast } from "sonner";
import { isAddress } from "viem";
import { useReadContract } from "wagmi";
import { Button } from "../../../ui/Button.tsx";
import { TextField } from "../../../ui/Field.tsx";
import { useMarket } from "../../../web3/contracts.ts";
import { Stepper } from "../../../web3/tx/Stepper.tsx";
import { writeStep } from "../../../web3/tx/steps.ts";
import { useTransactionFlow } from "../../../web3/tx/useTransactionFlow.ts";

/**
 * Block or unblock a collection, or one token of it, on the market contract. The moderator's own wallet
 * sends the operator transaction; the indexer then records the block for the API.
 */
export function Blocks() {
  const market = useMarket();
  const flow = useTransactionFlow();
  const [collection, setCollection] = useState("");
  const [tokenId, setTokenId] = useState("");
  const validCollection = isAddress(collection.trim());
  const validToken = tokenId.trim() === "" || /^\d+$/.test(tokenId.trim());
  const address = collection.trim() as `0x${string}`;
  const token = tokenId.trim() === "" ? null : BigInt(tokenId.trim());

  const collectionBlocked = useReadContract({
    ...market,
    functionName: "isCollectionBlocked",
    args: [address],
    query: { enabled: !!market && validCollection },
  });
  const tokenBlocked = useReadContract({
    ...market,
    functionName: "isTokenBlocked",
    args: [address, token ?? 0n],
    query: { enabled: !!market && validCollection && token !== null },
  });
  const blocked = token === null ? collectionBlocked.data : tokenBlocked.data;

  async function send(next: boolean) {
    if (!market || !validCollection || !validToken) return;
    const what = token === null ? "Collection" : `Token ${token}`;
    const step =
      token === null
        ? writeStep(`${next ? "Block" : "Unblock"} the collection (your wallet)`, {
            ...market,
            functionName: "setCollectionBlocked",
            args: [address, next],
          })
        : writeStep(`${next ? "Block" : "Unblock"} token ${token} (your wallet)`, {
            ...market,
            functionName: "setTokenBlocked",
            args: [address, token, next],
          });
    if (await flow.run([step])) {
      toast.success(`${what} ${next ? "blocked" : "unblocked"}.`);
      await Promise.all([collectionBlocked.refetch(), tokenBlocked.refetch()]);
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
          loading={flow.running}
          disabled={!validCollection || !validToken || blocked === true}
          onClick={() => send(true)}
        >
          Block
        </Button>
        <Button
          variant="secondary"
          disabled={flow.running || !validCollection || !validToken || blocked === false}
          onClick={() => send(false)}
        >
          Unblock
        </Button>
      </div>
      {flow.steps ? <Stepper steps={flow.steps} label="Block progress" /> : null}
    </form>
  );
}

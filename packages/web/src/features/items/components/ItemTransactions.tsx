import { ADDRESS_PATTERN, type ItemResponse } from "@easel/common";
import { useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { useNavigate } from "react-router";
import { toast } from "sonner";
import { useAppConfig } from "../../../api/appConfig.tsx";
import { useSession } from "../../../auth/session.ts";
import { Button } from "../../../ui/Button.tsx";
import { inputClass } from "../../../ui/Field.tsx";
import { Modal } from "../../../ui/Modal.tsx";
import { collectionContract } from "../../../web3/contracts.ts";
import { Stepper } from "../../../web3/tx/Stepper.tsx";
import { writeStep } from "../../../web3/tx/steps.ts";
import { useTransactionFlow } from "../../../web3/tx/useTransactionFlow.ts";
import { browseKeys } from "../../browse/api/browse.ts";
import { itemKeys } from "../api/items.ts";
import { isInAuction } from "./ItemActions.tsx";

type Item = ItemResponse["data"];

export const ITEM_TX_TEXT = {
  transferStep: "Transferring... confirm in your wallet",
  transferred: "Your NFT has been transferred.",
  burnStep: "Burning... confirm in your wallet",
  burned: "Your NFT has been burned.",
  notMinted: "This item is not minted yet: it can be transferred once a buyer has minted it.",
  inAuction:
    "This item is in an auction: it cannot be transferred or burned until the auction is settled or cancelled.",
  invalidAddress: "Enter a wallet address (0x followed by 40 hex digits).",
  yourself: "This item is already yours.",
} as const;

/** Transfer: the owner sends the token to another wallet (`safeTransferFrom`), with the wallet's steps. */
export function TransferDialog({
  item,
  open,
  onOpenChange,
}: {
  item: Item;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const flow = useTransactionFlow();
  return (
    <Modal
      open={open}
      onOpenChange={(next) => {
        if (!next) flow.reset();
        onOpenChange(next);
      }}
      title="Transfer"
      locked={flow.running}
    >
      {open ? <TransferForm item={item} flow={flow} onDone={() => onOpenChange(false)} /> : null}
    </Modal>
  );
}

function TransferForm({
  item,
  flow,
  onDone,
}: {
  item: Item;
  flow: ReturnType<typeof useTransactionFlow>;
  onDone: () => void;
}) {
  const { nft, nftCollection } = item;
  const { chainId } = useAppConfig();
  const { session } = useSession();
  const queryClient = useQueryClient();
  const id = useId();
  const [to, setTo] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  if (nft.status === "lazy" || isInAuction(item)) {
    return (
      <div className="flex flex-col gap-4">
        <p className="text-sm text-neutral-700 dark:text-neutral-300">
          {nft.status === "lazy" ? ITEM_TX_TEXT.notMinted : ITEM_TX_TEXT.inAuction}
        </p>
        <Button variant="secondary" onClick={onDone}>
          Close
        </Button>
      </div>
    );
  }
  const me = session?.address.toLowerCase() ?? "";
  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const target = to.trim().toLowerCase();
    if (!ADDRESS_PATTERN.test(target)) return setError(ITEM_TX_TEXT.invalidAddress);
    if (target === me) return setError(ITEM_TX_TEXT.yourself);
    setError(null);
    const ok = await flow.run([
      writeStep(ITEM_TX_TEXT.transferStep, {
        ...collectionContract(nftCollection.contract_address as `0x${string}`, chainId),
        functionName: "safeTransferFrom",
        args: [me as `0x${string}`, target as `0x${string}`, BigInt(nft.tokenId)],
      }),
    ]);
    if (!ok) return flow.reset();
    setDone(true);
    toast.success(ITEM_TX_TEXT.transferred);
    void queryClient.invalidateQueries({ queryKey: itemKeys.all });
    void queryClient.invalidateQueries({ queryKey: browseKeys.all });
  };
  if (flow.steps) {
    return (
      <div className="flex flex-col gap-4" role="status" aria-live="polite">
        <Stepper steps={flow.steps} label="Transferring your NFT" />
        {done ? (
          <>
            <p className="text-sm font-semibold">{ITEM_TX_TEXT.transferred}</p>
            <Button onClick={onDone}>Done</Button>
          </>
        ) : null}
      </div>
    );
  }
  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-4">
      <p className="text-sm text-neutral-700 dark:text-neutral-300">
        Send <strong>{nft.name}</strong> to another wallet. Transfers cannot be undone.
      </p>
      <div className="flex flex-col gap-1.5">
        <label htmlFor={id} className="text-sm font-semibold">
          Recipient address
        </label>
        <input
          id={id}
          value={to}
          onChange={(event) => setTo(event.target.value)}
          placeholder="0x…"
          autoComplete="off"
          spellCheck={false}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          className={`${inputClass} font-mono`}
        />
        {error ? (
          <p id={`${id}-error`} className="text-sm text-red-700 dark:text-red-400">
            {error}
          </p>
        ) : null}
      </div>
      <Button type="submit">Transfer</Button>
    </form>
  );
}

/** Burn: the owner destroys the token for good, after a confirmation, then leaves its page. */
export function BurnDialog({
  item,
  open,
  onOpenChange,
}: {
  item: Item;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const flow = useTransactionFlow();
  const { chainId } = useAppConfig();
  const { profile, session } = useSession();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { nft, nftCollection } = item;
  const burn = async () => {
    const ok = await flow.run([
      writeStep(ITEM_TX_TEXT.burnStep, {
        ...collectionContract(nftCollection.contract_address as `0x${string}`, chainId),
        functionName: "burnNFT",
        args: [BigInt(nft.tokenId)],
      }),
    ]);
    if (!ok) return flow.reset();
    toast.success(ITEM_TX_TEXT.burned);
    flow.reset();
    onOpenChange(false);
    await queryClient.invalidateQueries({ queryKey: browseKeys.all });
    queryClient.removeQueries({ queryKey: itemKeys.all });
    navigate(`/profile/${profile?.username || session?.address || ""}`);
  };
  return (
    <Modal
      open={open}
      onOpenChange={(next) => {
        if (!next) flow.reset();
        onOpenChange(next);
      }}
      title="Burn"
      locked={flow.running}
    >
      {flow.steps ? (
        <div role="status" aria-live="polite">
          <Stepper steps={flow.steps} label="Burning your NFT" />
        </div>
      ) : isInAuction(item) ? (
        // Put in an auction since the menu was opened (the page follows the chain).
        <div className="flex flex-col gap-4">
          <p className="text-sm text-neutral-700 dark:text-neutral-300">{ITEM_TX_TEXT.inAuction}</p>
          <Button variant="secondary" onClick={() => onOpenChange(false)}>
            Close
          </Button>
        </div>
      ) : (
        <div className="flex flex-col gap-4">
          <p className="text-sm text-neutral-700 dark:text-neutral-300">
            Burning destroys <strong>{nft.name}</strong> for good: nobody will own it again. This cannot be
            undone.
          </p>
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button variant="danger" onClick={burn}>
              Burn
            </Button>
          </div>
        </div>
      )}
    </Modal>
  );
}

import { MINT_MESSAGES } from "@easel/common";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { toast } from "sonner";
import { useAppConfig } from "../../../../api/appConfig.tsx";
import { errorMessage } from "../../../../api/client.ts";
import { useTransactionFlow } from "../../../../web3/tx/useTransactionFlow.ts";
import { browseKeys } from "../../../browse/api/browse.ts";
import { itemKeys } from "../../api/items.ts";
import type { MintProgress } from "../MintDialog.tsx";
import type { SplitPerson } from "../SplitDialog.tsx";
import { mintStep } from "./mintStep.ts";
import { showUploadErrors, type UploadStepReturnType, uploadStep } from "./uploadStep.ts";
import type { MintFormState } from "./useMintForm.ts";
import type { PickedArtwork } from "./usePickedArtwork.ts";

/**
 * What "Create NFT" does: the upload step, then (unless the collection is lazy) the wallet's mint step,
 * with the progress the mint dialog draws. A refused upload shows under its fields; a wallet error returns
 * to the form (the toast says why), leaving the upload unminted, which blocks nothing.
 */
export function useMintSubmit(
  { form, chosen }: MintFormState,
  artwork: PickedArtwork,
  split: readonly SplitPerson[],
  creator: string,
) {
  const { chainId } = useAppConfig();
  const flow = useTransactionFlow();
  const queryClient = useQueryClient();
  const [progress, setProgress] = useState<MintProgress | null>(null);

  const onSubmit = form.handleSubmit(async (values) => {
    if (!chosen) return;
    const poster = await artwork.finishedPoster();
    const start: MintProgress = { lazy: values.lazy, percent: 0, uploaded: false, write: null, path: null };
    setProgress(start);
    let uploaded: UploadStepReturnType;
    try {
      uploaded = await uploadStep({
        values,
        collection: chosen,
        split,
        poster,
        onProgress: (percent) => setProgress((p) => (p ? { ...p, percent: Math.min(percent, 99) } : p)),
      });
    } catch (error) {
      setProgress(null);
      showUploadErrors(error, form.setError);
      toast.error(errorMessage(error));
      return;
    }
    if (values.lazy) {
      setProgress({ ...start, percent: 100, uploaded: true, path: uploaded.path });
      toast.success(MINT_MESSAGES.lazyCreated);
      void queryClient.invalidateQueries({ queryKey: browseKeys.all });
      return;
    }
    setProgress({ ...start, percent: 100, uploaded: true });
    let tokenId: bigint | null = null;
    const ok = await flow.run([
      mintStep({
        collection: chosen,
        chainId,
        royalty: values.royalty,
        uploaded,
        onMinted: (id) => {
          tokenId = id;
        },
      }),
    ]);
    if (!ok || tokenId === null) {
      setProgress(null);
      flow.reset();
      return;
    }
    const path =
      chosen.type === "default"
        ? `/${creator}/${tokenId}`
        : `/${creator}/${encodeURIComponent(chosen.slug)}/${tokenId}`;
    setProgress((p) => (p ? { ...p, path } : p));
    toast.success(MINT_MESSAGES.minted);
    void queryClient.invalidateQueries({ queryKey: browseKeys.all });
    void queryClient.invalidateQueries({ queryKey: itemKeys.all });
  });

  /** Closes the mint dialog; after a mint, `onMinted` empties the form for the next one. */
  const closeDialog = (onMinted: () => void) => {
    if (progress?.path) onMinted();
    flow.reset();
    setProgress(null);
  };

  /** The dialog's progress, with the wallet step's state. */
  const dialogProgress = progress ? { ...progress, write: flow.steps?.[0] ?? null } : null;

  return { onSubmit, closeDialog, dialogProgress };
}

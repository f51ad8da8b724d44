import { cidToHex } from "@easel/common";
import { easelCollectionAbi } from "@easel/contracts/abis";
import { parseEventLogs } from "viem";
import { collectionContract } from "../../../../web3/contracts.ts";
import { writeStep } from "../../../../web3/tx/steps.ts";
import { MINT_STEPS } from "../MintDialog.tsx";
import type { UploadStepReturnType } from "./uploadStep.ts";
import type { MintCollection } from "./useMintForm.ts";

export type MintStepParameters = {
  collection: MintCollection;
  chainId: number;
  /** Royalty in percent, as the form holds it. */
  royalty: number;
  uploaded: UploadStepReturnType;
  /** Called with the minted token's id, read from the receipt's `Minted` event. */
  onMinted: (tokenId: bigint | null) => void;
};

/** The mint form's wallet step, after the upload: `mintNFT` on the collection with the uploaded metadata's CID. */
export function mintStep({ collection, chainId, royalty, uploaded, onMinted }: MintStepParameters) {
  return writeStep(
    MINT_STEPS.confirm,
    {
      ...collectionContract(collection.contract_address as `0x${string}`, chainId),
      functionName: "mintNFT",
      args: [
        royalty * 100,
        cidToHex(uploaded.uri_cid),
        uploaded.collaborators.map((c) => ({ account: c.address as `0x${string}`, share: c.share })),
      ],
    },
    (receipt) => {
      const [minted] = parseEventLogs({ abi: easelCollectionAbi, logs: receipt.logs, eventName: "Minted" });
      onMinted(minted?.args.tokenId ?? null);
    },
  );
}

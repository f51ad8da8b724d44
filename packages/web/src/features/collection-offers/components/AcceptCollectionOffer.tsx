import { useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { useAppConfig } from "../../../api/appConfig.tsx";
import { Button } from "../../../ui/Button.tsx";
import { collectionContract, useMarket } from "../../../web3/contracts.ts";
import { Stepper } from "../../../web3/tx/Stepper.tsx";
import { type TransactionStep, writeStep } from "../../../web3/tx/steps.ts";
import { useTransactionFlow } from "../../../web3/tx/useTransactionFlow.ts";
import { itemKeys } from "../../items/api/items.ts";
import { useMarketApproval } from "../../trade/api/market.ts";
import { type BestCollectionOffer, collectionOfferKeys } from "../api/collectionOffers.ts";
import { chainTerms, COLLECTION_OFFER_TEXT as T } from "../lib/collectionOffer.ts";

/**
 * The owner's "Accept offer": approves the market for the collection first when it is not yet, then sells the
 * work with `acceptCollectionOffer(terms, tokenId, proof)`, through the app's one runner and stepper.
 */
export function AcceptCollectionOffer({
  best,
  tokenId,
  me,
}: {
  best: BestCollectionOffer;
  tokenId: string;
  me: string;
}) {
  const { chainId } = useAppConfig();
  const market = useMarket();
  const flow = useTransactionFlow();
  const queryClient = useQueryClient();
  const { terms } = best.offer;
  const approval = useMarketApproval(terms.collection, me, chainId);

  const accept = async () => {
    if (!market || flow.running) return;
    const steps: TransactionStep[] = [];
    if (approval.data !== true)
      steps.push(
        writeStep(T.approving, {
          ...collectionContract(terms.collection as `0x${string}`, chainId),
          functionName: "setApprovalForAll",
          args: [market.address, true],
        }),
      );
    steps.push(
      writeStep(T.accepting, {
        ...market,
        functionName: "acceptCollectionOffer",
        args: [chainTerms(terms), BigInt(tokenId), best.proof],
      }),
    );
    const ok = await flow.run(steps);
    if (!ok) return;
    toast.success(T.accepted);
    void queryClient.invalidateQueries({ queryKey: collectionOfferKeys.all });
    void queryClient.invalidateQueries({ queryKey: itemKeys.all });
  };

  return (
    <div className="flex flex-col gap-2">
      <Button onClick={accept} loading={flow.running} disabled={!market || approval.isPending}>
        {T.accept}
      </Button>
      {flow.steps ? <Stepper steps={flow.steps} label="Accepting the collection offer" /> : null}
    </div>
  );
}

import { useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { Button } from "../../../ui/Button.tsx";
import { useMarket } from "../../../web3/contracts.ts";
import { Stepper } from "../../../web3/tx/Stepper.tsx";
import { writeStep } from "../../../web3/tx/steps.ts";
import { useTransactionFlow } from "../../../web3/tx/useTransactionFlow.ts";
import { type CollectionOffer, collectionOfferKeys } from "../api/collectionOffers.ts";
import { chainTerms, COLLECTION_OFFER_TEXT as T } from "../lib/collectionOffer.ts";

/**
 * "Cancel the rest" of a live collection offer, or "Withdraw" an expired one: `cancelCollectionOffer(terms)` at
 * the market's address (the market runs it in its administration code), which refunds price × remaining.
 */
export function CancelCollectionOffer({
  offer,
  action,
}: {
  offer: CollectionOffer;
  action: "cancel" | "withdraw";
}) {
  const market = useMarket();
  const flow = useTransactionFlow();
  const queryClient = useQueryClient();
  const cancel = async () => {
    if (!market || flow.running) return;
    const ok = await flow.run([
      writeStep(T.cancelling, {
        ...market,
        functionName: "cancelCollectionOffer",
        args: [chainTerms(offer.terms)],
      }),
    ]);
    if (!ok) return;
    toast.success(action === "cancel" ? T.cancelled : T.withdrawn);
    void queryClient.invalidateQueries({ queryKey: collectionOfferKeys.all });
  };
  return (
    <div className="flex flex-col items-end gap-1">
      <Button variant="secondary" onClick={cancel} loading={flow.running} disabled={!market}>
        {action === "cancel" ? T.cancel : T.withdraw}
      </Button>
      {flow.steps ? <Stepper steps={flow.steps} label="Cancelling the collection offer" /> : null}
    </div>
  );
}

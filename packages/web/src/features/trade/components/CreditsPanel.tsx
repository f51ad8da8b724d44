import { easelMarketAbi } from "@easel/contracts/abis";
import { toast } from "sonner";
import { useAppConfig } from "../../../api/appConfig.tsx";
import { errorMessage } from "../../../api/client.ts";
import { ethText } from "../../../lib/eth.ts";
import { Button } from "../../../ui/Button.tsx";
import { Loading } from "../../../ui/Loading.tsx";
import { Stepper } from "../../../web3/tx/Stepper.tsx";
import { writeStep } from "../../../web3/tx/steps.ts";
import { useTransactionFlow } from "../../../web3/tx/useTransactionFlow.ts";
import { useCredits } from "../api/history.ts";
import { useRefreshAfterTrade } from "../api/market.ts";

/**
 * Pending payments: when a wallet refuses ETH (a contract wallet without a receive function), the market or
 * a lazy collection keeps the payment as a credit instead of failing the sale. Each is withdrawn here.
 */
export function CreditsPanel() {
  const credits = useCredits();
  const { chainId, contracts } = useAppConfig();
  const flow = useTransactionFlow();
  const refresh = useRefreshAfterTrade();
  const withdraw = async (contract: string) => {
    const ok = await flow.run([
      // `withdraw()` is the same on the market and on collections (EaselPayments).
      writeStep("Withdrawing...", {
        address: contract as `0x${string}`,
        abi: easelMarketAbi,
        chainId,
        functionName: "withdraw",
      }),
    ]);
    if (ok) toast.success("Your payment has been withdrawn to your wallet.");
    flow.reset();
    void refresh();
  };
  return (
    <section
      className="rounded-xl border border-neutral-200 p-5 dark:border-neutral-800"
      aria-label="Pending payments"
    >
      <h2 className="text-lg font-semibold">Pending payments</h2>
      {credits.isPending ? (
        <Loading label="Loading pending payments" />
      ) : credits.isError ? (
        <p className="mt-3 text-red-700 dark:text-red-400">{errorMessage(credits.error)}</p>
      ) : credits.data.length === 0 ? (
        <p className="mt-3 text-sm text-neutral-600 dark:text-neutral-400">There is no data history</p>
      ) : (
        <ul className="mt-3 flex flex-col gap-2">
          {credits.data.map((credit) => (
            <li key={credit.contract} className="flex flex-wrap items-center justify-between gap-3 text-sm">
              <span>
                <span className="font-semibold tabular-nums">{ethText(credit.amountWei)}</span> held by{" "}
                {credit.contract === contracts.market?.toLowerCase() ? (
                  "the market"
                ) : (
                  <span className="font-mono">{credit.contract}</span>
                )}
              </span>
              <Button
                onClick={() => withdraw(credit.contract)}
                loading={flow.running}
                loadingText="Withdrawing"
              >
                Withdraw
              </Button>
            </li>
          ))}
        </ul>
      )}
      {flow.steps ? <Stepper steps={flow.steps} label="Withdrawal" /> : null}
    </section>
  );
}

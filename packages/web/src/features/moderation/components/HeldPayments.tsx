import { displayName } from "@easel/common";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { toast } from "sonner";
import { useAppConfig } from "../../../api/appConfig.tsx";
import { errorMessage } from "../../../api/client.ts";
import { dateTimeText } from "../../../lib/dates.ts";
import { ethText } from "../../../lib/eth.ts";
import { Button } from "../../../ui/Button.tsx";
import { ConfirmQuestion } from "../../../ui/ConfirmQuestion.tsx";
import { Loading } from "../../../ui/Loading.tsx";
import { PersonName } from "../../../ui/PersonName.tsx";
import { useMarket } from "../../../web3/contracts.ts";
import { ExplorerLink, Stepper } from "../../../web3/tx/Stepper.tsx";
import { writeStep } from "../../../web3/tx/steps.ts";
import { useTransactionFlow } from "../../../web3/tx/useTransactionFlow.ts";
import { type HeldPayments as Held, heldPaymentKeys, useHeldPayments } from "../api/heldPayments.ts";

type Row = Held["data"][number];

export const HELD_TEXT = {
  intro:
    "When a banned account is owed a royalty or a share of a sale, the sale still goes through and the market holds that part. Release pays it to the account; Forfeit adds it to Easel's fees.",
  none: "The market holds no payment.",
  forfeitQuestion: (account: string, amount: string) =>
    `Forfeit ${amount} held for ${account}? It goes to Easel's fees and cannot be paid to them afterwards.`,
  released: "The held payment was released to the account.",
  forfeited: "The held payment was forfeited to Easel's fees.",
} as const;

const cell = "px-3 py-2 align-top";

/**
 * Held payments (GET /api/admin/held): what the market holds for each banned payee, what was released and
 * forfeited, and the operator's Release and Forfeit (`releaseHeld` / `forfeitHeld` from the moderator's
 * wallet). A forfeit is asked once more: it cannot be undone.
 */
export function HeldPayments() {
  const held = useHeldPayments();
  const market = useMarket();
  const flow = useTransactionFlow();
  const queryClient = useQueryClient();
  const { explorerUrl } = useAppConfig();
  const [forfeiting, setForfeiting] = useState<string | null>(null);
  if (held.isPending) return <Loading label="Loading held payments" />;
  if (held.isError) return <p className="text-red-700">{errorMessage(held.error)}</p>;

  async function send(row: Row, functionName: "releaseHeld" | "forfeitHeld") {
    if (!market || flow.running) return;
    const release = functionName === "releaseHeld";
    const ok = await flow.run([
      writeStep(
        `${release ? "Release" : "Forfeit"} ${ethText(row.heldWei)} held for ${displayName(row.person)} (your wallet)`,
        {
          ...market,
          functionName,
          args: [row.account as `0x${string}`],
        },
      ),
    ]);
    setForfeiting(null);
    if (ok) toast.success(release ? HELD_TEXT.released : HELD_TEXT.forfeited);
    await queryClient.invalidateQueries({ queryKey: heldPaymentKeys.all });
  }

  const { data: rows, totalHeldWei } = held.data;
  return (
    <div className="flex flex-col gap-4">
      <p className="max-w-3xl text-sm text-neutral-600 dark:text-neutral-400">{HELD_TEXT.intro}</p>
      <p className="font-semibold">Held now in total: {ethText(totalHeldWei)}</p>
      {rows.length === 0 ? (
        <p className="text-neutral-600 dark:text-neutral-400">{HELD_TEXT.none}</p>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Held payments</caption>
            <thead className="text-neutral-500">
              <tr>
                <th className={cell}>Account</th>
                <th className={cell}>Held now</th>
                <th className={cell}>Released</th>
                <th className={cell}>Forfeited</th>
                <th className={cell}>Last transaction</th>
                <th className={cell}>
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-neutral-200 dark:divide-neutral-800">
              {rows.map((row) => {
                const nothing = BigInt(row.heldWei) === 0n;
                const who = displayName(row.person);
                return (
                  <tr key={row.account}>
                    <td className={cell}>
                      <PersonName person={row.person} className="underline" />
                    </td>
                    <td className={`${cell} tabular-nums`}>{ethText(row.heldWei)}</td>
                    <td className={`${cell} tabular-nums`}>{ethText(row.releasedWei)}</td>
                    <td className={`${cell} tabular-nums`}>{ethText(row.forfeitedWei)}</td>
                    <td className={cell}>
                      <ExplorerLink hash={row.lastTx} explorerUrl={explorerUrl} />
                      <br />
                      <span className="text-xs text-neutral-500">{dateTimeText(row.lastAt)}</span>
                    </td>
                    {/* The question wraps; the buttons stay on one line. */}
                    <td
                      className={`${cell} ${forfeiting === row.account ? "max-w-xs" : "whitespace-nowrap"}`}
                    >
                      {forfeiting === row.account ? (
                        <ConfirmQuestion
                          label={`Forfeit for ${who}`}
                          question={HELD_TEXT.forfeitQuestion(who, ethText(row.heldWei))}
                          yes="Yes, forfeit"
                          no="Keep it held"
                          busy={flow.running}
                          onYes={() => send(row, "forfeitHeld")}
                          onNo={() => setForfeiting(null)}
                        />
                      ) : (
                        <div className="flex gap-2">
                          <Button
                            variant="secondary"
                            aria-label={`Release for ${who}`}
                            disabled={nothing || !market || flow.running}
                            onClick={() => send(row, "releaseHeld")}
                          >
                            Release
                          </Button>
                          <Button
                            variant="ghost"
                            aria-label={`Forfeit for ${who}`}
                            disabled={nothing || !market || flow.running}
                            onClick={() => setForfeiting(row.account)}
                          >
                            Forfeit
                          </Button>
                        </div>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {flow.steps ? <Stepper steps={flow.steps} label="Held payment progress" /> : null}
    </div>
  );
}

import { useId } from "react";
import { buttonClass } from "../ui/Button.tsx";
import { mobileWalletLinks } from "../web3/mobileWallets.ts";

export const MOBILE_WALLETS_TEXT = {
  heading: "Open Easel in your wallet app",
  note: "On a phone, your wallet is an app: open this page in its browser, then connect there.",
  open: (name: string) => `Open in ${name}`,
} as const;

/**
 * For a phone with no wallet in its browser: one link per wallet app that opens this very page in the app's own
 * browser (web3/mobileWallets.ts), where the wallet is then found as a browser wallet.
 */
export function MobileWalletLinks({ page = window.location.href }: { page?: string }) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3">
      <h3 id={headingId} className="text-sm font-semibold">
        {MOBILE_WALLETS_TEXT.heading}
      </h3>
      <p className="-mt-2 text-xs text-neutral-600 dark:text-neutral-400">{MOBILE_WALLETS_TEXT.note}</p>
      <ul className="flex flex-col gap-2">
        {mobileWalletLinks(page).map((wallet) => (
          <li key={wallet.id}>
            <a
              href={wallet.href}
              rel="noopener"
              className={buttonClass("secondary", "w-full justify-start py-3")}
            >
              {MOBILE_WALLETS_TEXT.open(wallet.name)}
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}

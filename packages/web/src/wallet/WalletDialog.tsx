import { shortAddress } from "@easel/common";
import * as Dialog from "@radix-ui/react-dialog";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useId, useState } from "react";
import { Link } from "react-router";
import { toast } from "sonner";
import type { Connector } from "wagmi";
import { useConfig, useConnection, useConnectors } from "wagmi";
import { connect, disconnect, switchChain } from "wagmi/actions";
import { useAppConfig } from "../api/appConfig.tsx";
import { errorMessage } from "../api/client.ts";
import { markConnected } from "../auth/connectedAt.ts";
import { SESSION_QUERY_KEY, useSession } from "../auth/session.ts";
import { Button, buttonClass } from "../ui/Button.tsx";
import { LogoMark } from "../ui/Logo.tsx";
import { isUserRejection, transactionErrorMessage } from "../web3/errors.ts";
import { isMobileBrowser } from "../web3/mobileWallets.ts";
import { WALLETCONNECT_ID } from "../web3/walletConnect.ts";
import { ANVIL_ADDRESSES, DEV_WALLET_ID, selectDevAccount } from "./devAccounts.ts";
import { MobileWalletLinks } from "./MobileWalletLinks.tsx";
import { signInWithEthereum } from "./signIn.ts";
import { useDevAccounts } from "./useDevAccounts.ts";
import { useWalletDialog } from "./walletDialogState.tsx";

export const METAMASK_DOWNLOAD_URL = "https://metamask.io/download/";

/** True when the page has an EIP-1193 provider (MetaMask or another browser wallet). */
export function hasInjectedProvider(): boolean {
  return typeof window !== "undefined" && typeof window.ethereum !== "undefined";
}

/** The wallets that announced themselves (EIP-6963): wagmi makes one injected connector each, named by its rdns. */
const announcedWallets = (connectors: readonly Connector[]) =>
  connectors.filter((c) => c.type === "injected" && c.id !== "injected" && c.id !== DEV_WALLET_ID);

/**
 * Whether `window.ethereum` is a wallet that did not announce itself: the fallback button is shown for it only,
 * so an announcing wallet that also sets `window.ethereum` is not listed twice.
 */
function useUnannouncedInjected(announced: readonly Connector[]): boolean {
  const [unannounced, setUnannounced] = useState(() => hasInjectedProvider() && announced.length === 0);
  useEffect(() => {
    if (!hasInjectedProvider()) return setUnannounced(false);
    let live = true;
    Promise.all(announced.map((c) => c.getProvider().catch(() => null))).then((providers) => {
      if (live) setUnannounced(!providers.includes(window.ethereum));
    });
    return () => {
      live = false;
    };
  }, [announced]);
  return unannounced;
}

function walletToast(error: unknown) {
  const message = transactionErrorMessage(error);
  if (isUserRejection(error)) toast(message);
  else toast.error(message);
}

/**
 * The wallet dialog (spec, browsing section 2 and 4):
 * 1. 'Get Started' / 'Connect Your Wallet' with a MetaMask button, or 'Install MetaMask' without a browser
 *    wallet (on a phone: links that open the page in a wallet app's browser); WalletConnect when the server
 *    names a project; on the local chain also the Dev wallet.
 * 2. 'Sign The Message in your Wallet' with Continue (spinner 'Signing') and Disconnect.
 * Signing in closes it.
 */
export function WalletDialog() {
  const { open, setOpen } = useWalletDialog();
  const connection = useConnection();
  const { session } = useSession();
  const signedInHere =
    session !== null && connection.address?.toLowerCase() === session.address.toLowerCase();
  const step = connection.status === "connected" && !signedInHere ? "sign" : "connect";

  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-neutral-950/60 backdrop-blur-sm data-[state=open]:animate-in" />
        <Dialog.Content
          className="fixed top-1/2 left-1/2 z-50 max-h-[90dvh] w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-2xl border border-neutral-200 bg-white p-6 shadow-xl dark:border-neutral-800 dark:bg-neutral-900"
          aria-describedby={undefined}
        >
          <Dialog.Close
            className="absolute top-3 right-3 rounded-lg p-2 text-neutral-500 hover:bg-neutral-100 hover:text-neutral-900 dark:hover:bg-neutral-800 dark:hover:text-neutral-100"
            aria-label="Close"
          >
            <svg viewBox="0 0 24 24" className="size-5" aria-hidden="true">
              <path d="M6 6l12 12M18 6 6 18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
            </svg>
          </Dialog.Close>
          {step === "sign" && connection.address ? (
            <SignStep address={connection.address} chainId={connection.chainId} />
          ) : (
            <ConnectStep />
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** 'Account 1 · Mira Okafor · Artist — verified · 0x70…79C8': who a test account is, where the server knows. */
export function devAccountLabel(
  index: number,
  address: string,
  known: { name: string | null; role: string } | undefined,
): string {
  const who = known ? [known.name, known.role].filter(Boolean).join(" · ") : null;
  return [`Account ${index}`, who, shortAddress(address)].filter(Boolean).join(" · ");
}

function ConnectStep() {
  const appConfig = useAppConfig();
  const wagmiConfig = useConfig();
  const connectors = useConnectors();
  const { setOpen } = useWalletDialog();
  const [pending, setPending] = useState<string | null>(null);
  const [devAccount, setDevAccount] = useState(0);
  const selectId = useId();
  const announced = announcedWallets(connectors);
  const injectedAvailable = useUnannouncedInjected(announced);
  const injectedConnector = connectors.find((c) => c.id === "injected");
  const devConnector = appConfig.localChain ? connectors.find((c) => c.id === DEV_WALLET_ID) : undefined;
  const devAccounts = useDevAccounts(!!devConnector);
  const relayConnector = connectors.find((c) => c.id === WALLETCONNECT_ID);
  // A phone's browser has no wallet: its wallets are apps, which open the page in browsers of their own.
  const phoneWithoutWallet = !hasInjectedProvider() && !announced.length && isMobileBrowser();

  async function connectWith(connector: Connector, kind: string) {
    setPending(kind);
    // WalletConnect shows its own QR code dialog: this one steps aside (a modal dialog makes the rest of the page
    // inert) and comes back for the signature.
    const relayed = connector.id === WALLETCONNECT_ID;
    try {
      if (kind === "dev") selectDevAccount(devAccount);
      if (relayed) setOpen(false);
      const result = await connect(wagmiConfig, { connector });
      markConnected();
      if (result.chainId !== appConfig.chainId) {
        // wallet_switchEthereumChain; wagmi falls back to wallet_addEthereumChain when the wallet
        // does not know the chain (the local chain in MetaMask).
        await switchChain(wagmiConfig, { chainId: appConfig.chainId, connector });
      }
      // The dialog now shows the sign step (the connection is established).
      if (relayed) setOpen(true);
    } catch (error) {
      walletToast(error);
      setOpen(false);
    } finally {
      setPending(null);
    }
  }

  if (
    !injectedAvailable &&
    !announced.length &&
    !appConfig.localChain &&
    !relayConnector &&
    !phoneWithoutWallet
  ) {
    return (
      <div className="flex flex-col items-center text-center">
        <LogoMark className="size-12" />
        <Dialog.Title className="mt-4 text-2xl font-bold tracking-tight">Install MetaMask</Dialog.Title>
        <p className="mt-2 text-sm text-neutral-600 dark:text-neutral-400">
          Easel needs a browser wallet to sign in. Install MetaMask, then come back and connect.
        </p>
        <a
          href={METAMASK_DOWNLOAD_URL}
          target="_blank"
          rel="noopener noreferrer"
          className={buttonClass("primary", "mt-6 w-full py-3")}
        >
          Install MetaMask
        </a>
        <Terms />
      </div>
    );
  }

  return (
    <div className="flex flex-col">
      <Dialog.Title className="text-2xl font-bold tracking-tight">Get Started</Dialog.Title>
      <p className="mt-1 text-neutral-600 dark:text-neutral-400">Connect Your Wallet</p>

      <div className="mt-6 flex flex-col gap-3">
        {announced.map((connector) => (
          <Button
            key={connector.uid}
            variant="secondary"
            className="w-full justify-start py-3"
            loading={pending === connector.uid}
            disabled={pending !== null}
            onClick={() => connectWith(connector, connector.uid)}
          >
            {/* The icon is the wallet's own (a data: URI it announced); its name says the rest. */}
            {connector.icon ? <img src={connector.icon} alt="" className="size-6 rounded" /> : null}
            {connector.name}
          </Button>
        ))}
        {injectedAvailable && injectedConnector ? (
          <Button
            variant="secondary"
            className="w-full justify-start py-3"
            loading={pending === "injected"}
            disabled={pending !== null}
            onClick={() => connectWith(injectedConnector, "injected")}
          >
            <MetaMaskIcon />
            {(window.ethereum as { isMetaMask?: boolean } | undefined)?.isMetaMask
              ? "MetaMask"
              : "Browser wallet"}
          </Button>
        ) : announced.length || phoneWithoutWallet ? null : (
          <a
            href={METAMASK_DOWNLOAD_URL}
            target="_blank"
            rel="noopener noreferrer"
            className={buttonClass("secondary", "w-full justify-start py-3")}
          >
            <MetaMaskIcon />
            Install MetaMask
          </a>
        )}
        {relayConnector ? (
          <Button
            variant="secondary"
            className="w-full justify-start py-3"
            loading={pending === "walletConnect"}
            disabled={pending !== null}
            onClick={() => connectWith(relayConnector, "walletConnect")}
          >
            <WalletConnectIcon />
            WalletConnect
          </Button>
        ) : null}
        {phoneWithoutWallet ? <MobileWalletLinks /> : null}

        {devConnector ? (
          <div className="rounded-xl border border-dashed border-neutral-300 p-4 dark:border-neutral-700">
            <label htmlFor={selectId} className="block text-sm font-medium">
              Dev wallet account
            </label>
            <p className="mt-1 text-xs text-neutral-600 dark:text-neutral-400">
              Local chain only: one of anvil's public test accounts, signed in this page. Never use these keys
              with real funds.
            </p>
            <select
              id={selectId}
              value={devAccount}
              onChange={(event) => setDevAccount(Number(event.target.value))}
              className="mt-3 w-full rounded-lg border border-neutral-300 bg-white px-3 py-2 font-mono text-sm tabular-nums dark:border-neutral-700 dark:bg-neutral-950"
            >
              {ANVIL_ADDRESSES.map((address, index) => (
                <option key={address} value={index}>
                  {devAccountLabel(index, address, devAccounts.data?.[index])}
                </option>
              ))}
            </select>
            <Button
              variant="secondary"
              className="mt-3 w-full"
              loading={pending === "dev"}
              disabled={pending !== null}
              onClick={() => connectWith(devConnector, "dev")}
            >
              Dev wallet
            </Button>
          </div>
        ) : null}
      </div>
      <Terms />
    </div>
  );
}

function SignStep({ address, chainId }: { address: `0x${string}`; chainId: number | undefined }) {
  const appConfig = useAppConfig();
  const wagmiConfig = useConfig();
  const queryClient = useQueryClient();
  const { setOpen } = useWalletDialog();
  const [signing, setSigning] = useState(false);
  const [leaving, setLeaving] = useState(false);

  async function onContinue() {
    setSigning(true);
    try {
      if (chainId !== appConfig.chainId) {
        await switchChain(wagmiConfig, { chainId: appConfig.chainId });
      }
      await signInWithEthereum(wagmiConfig, { address, chainId: appConfig.chainId });
      markConnected();
      await queryClient.invalidateQueries({ queryKey: SESSION_QUERY_KEY });
      setOpen(false);
    } catch (error) {
      if (isUserRejection(error)) toast(transactionErrorMessage(error));
      else if (error instanceof Error && error.name === "ApiError") toast.error(errorMessage(error));
      else toast.error(transactionErrorMessage(error));
    } finally {
      setSigning(false);
    }
  }

  async function onDisconnect() {
    setLeaving(true);
    try {
      await disconnect(wagmiConfig);
    } catch (error) {
      toast.error(transactionErrorMessage(error));
    } finally {
      setLeaving(false);
    }
  }

  return (
    <div className="flex flex-col">
      <Dialog.Title className="text-2xl font-bold tracking-tight">
        Sign The Message in your Wallet
      </Dialog.Title>
      <p className="mt-2 text-sm text-neutral-600 dark:text-neutral-400">
        Sign the welcome message with{" "}
        <span className="font-mono font-medium text-neutral-900 dark:text-neutral-100">
          {shortAddress(address)}
        </span>{" "}
        to sign in and accept the Terms of Service. Signing is free and sends no transaction.
      </p>
      <div className="mt-6 flex flex-col gap-3 sm:flex-row-reverse">
        <Button
          className="flex-1 py-3"
          loading={signing}
          loadingText="Signing"
          disabled={leaving}
          onClick={onContinue}
        >
          Continue
        </Button>
        <Button
          variant="secondary"
          className="flex-1 py-3"
          loading={leaving}
          disabled={signing}
          onClick={onDisconnect}
        >
          Disconnect
        </Button>
      </div>
    </div>
  );
}

function Terms() {
  const { setOpen } = useWalletDialog();
  const linkClass = "font-medium text-accent-700 underline underline-offset-2 dark:text-accent-300";
  return (
    <p className="mt-6 text-center text-xs text-neutral-600 dark:text-neutral-400">
      By connecting a wallet you agree to Easel's{" "}
      <Link to="/TermsOfServices" className={linkClass} onClick={() => setOpen(false)}>
        Terms of Service
      </Link>{" "}
      and acknowledge the{" "}
      <Link to="/privacyAndPolicy" className={linkClass} onClick={() => setOpen(false)}>
        Privacy Policy
      </Link>
      .
    </p>
  );
}

function WalletConnectIcon() {
  return (
    <svg viewBox="0 0 24 24" className="size-6" aria-hidden="true">
      <rect width="24" height="24" rx="6" fill="#3B99FC" />
      <path
        fill="none"
        stroke="#fff"
        strokeWidth="1.8"
        strokeLinecap="round"
        strokeLinejoin="round"
        d="M6.2 9.6c3.2-3.1 8.4-3.1 11.6 0M7.5 12.4l2.2 2.2 2.3-2.2 2.3 2.2 2.2-2.2"
      />
    </svg>
  );
}

function MetaMaskIcon() {
  return (
    <svg viewBox="0 0 24 24" className="size-6" aria-hidden="true">
      <path fill="#E2761B" d="M21.3 2 13.2 8l1.5-3.6z" />
      <path
        fill="#E4761B"
        d="m2.7 2 8 6.1-1.4-3.7zM18.4 16.3l-2.2 3.3 4.6 1.3 1.3-4.5zM1.9 16.4l1.3 4.5 4.6-1.3-2.1-3.3z"
      />
      <path
        fill="#E4761B"
        d="m7.5 10.6-1.3 1.9 4.6.2-.2-4.9zM16.5 10.6l-3.2-2.9-.1 5 4.6-.2zM7.8 19.6l2.7-1.3-2.4-1.9zM13.5 18.3l2.7 1.3-.3-3.2z"
      />
      <path fill="#F6851B" d="m10.8 12.7-4.6-.2 1.2 5.3 2.4-1.9zM13.2 12.7l-.1 3.2 2.4 1.9 1.2-5.3z" />
    </svg>
  );
}

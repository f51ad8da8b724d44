import { fireEvent, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  fakeApi,
  fakeInjectedWallet,
  MAINNET_CONFIG,
  renderApp,
  SIGNED_OUT,
  sessionRoute,
} from "../test/harness.tsx";

const IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1";
const PROJECT_ID = "0123456789abcdef0123456789abcdef";

async function openDialog() {
  fireEvent.click(await screen.findByRole("button", { name: "Connect Wallet" }));
  return screen.findByRole("dialog");
}

afterEach(() => vi.restoreAllMocks());

describe("wallet dialog on a phone", () => {
  it("opens the current page in each wallet app when the browser has no wallet", async () => {
    vi.spyOn(navigator, "userAgent", "get").mockReturnValue(IPHONE);
    fakeApi(sessionRoute({ current: SIGNED_OUT }));
    await renderApp({ config: MAINNET_CONFIG });
    const dialog = await openDialog();
    const list = within(dialog).getByRole("region", { name: "Open Easel in your wallet app" });
    const page = window.location.href;
    expect(within(list).getByRole("link", { name: "Open in MetaMask" }).getAttribute("href")).toBe(
      `https://metamask.app.link/dapp/${window.location.host}${window.location.pathname}`,
    );
    expect(within(list).getByRole("link", { name: "Open in Coinbase Wallet" }).getAttribute("href")).toBe(
      `https://go.cb-w.com/dapp?cb_url=${encodeURIComponent(page)}`,
    );
    expect(within(list).getByRole("link", { name: "Open in Trust Wallet" }).getAttribute("href")).toBe(
      `https://link.trustwallet.com/open_url?coin_id=60&url=${encodeURIComponent(page)}`,
    );
    expect(within(list).getByRole("link", { name: "Open in Rainbow" }).getAttribute("href")).toBe(
      `https://rnbwapp.com/dapp?url=${encodeURIComponent(page)}`,
    );
    // Not the desktop's dead end.
    expect(within(dialog).queryByRole("heading", { name: "Install MetaMask" })).toBeNull();
  });

  it("inside a wallet app's browser, connects with it instead", async () => {
    vi.spyOn(navigator, "userAgent", "get").mockReturnValue(IPHONE);
    fakeApi(sessionRoute({ current: SIGNED_OUT }));
    fakeInjectedWallet();
    await renderApp({ config: MAINNET_CONFIG });
    const dialog = await openDialog();
    expect(within(dialog).getByRole("button", { name: "MetaMask" })).toBeTruthy();
    expect(within(dialog).queryByRole("region", { name: "Open Easel in your wallet app" })).toBeNull();
  });

  it("shows no wallet-app links on a desktop", async () => {
    fakeApi(sessionRoute({ current: SIGNED_OUT }));
    await renderApp({ config: MAINNET_CONFIG });
    const dialog = await openDialog();
    expect(within(dialog).getByRole("heading", { name: "Install MetaMask" })).toBeTruthy();
    expect(within(dialog).queryByRole("link", { name: "Open in MetaMask" })).toBeNull();
  });
});

describe("WalletConnect in the wallet dialog", () => {
  it("is offered when the server names a project, beside Install MetaMask", async () => {
    fakeApi(sessionRoute({ current: SIGNED_OUT }));
    await renderApp({ config: { ...MAINNET_CONFIG, walletConnectProjectId: PROJECT_ID } });
    const dialog = await openDialog();
    expect(within(dialog).getByRole("heading", { name: "Get Started" })).toBeTruthy();
    expect(within(dialog).getByRole("button", { name: "WalletConnect" })).toBeTruthy();
    expect(within(dialog).getByRole("link", { name: "Install MetaMask" })).toBeTruthy();
  });

  it("is not offered without one", async () => {
    fakeApi(sessionRoute({ current: SIGNED_OUT }));
    fakeInjectedWallet();
    await renderApp({ config: MAINNET_CONFIG });
    const dialog = await openDialog();
    expect(within(dialog).getByRole("button", { name: "MetaMask" })).toBeTruthy();
    expect(within(dialog).queryByRole("button", { name: "WalletConnect" })).toBeNull();
  });
});

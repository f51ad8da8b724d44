import { ANVIL_ADDRESSES, type SessionResponse } from "@easel/common";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { parseSiweMessage } from "viem/siwe";
import { describe, expect, it } from "vitest";
import {
  ALICE,
  fakeApi,
  fakeInjectedWallet,
  LOCAL_CONFIG,
  MAINNET_CONFIG,
  renderApp,
  SIGNED_OUT,
  sessionRoute,
  signedIn,
} from "../test/harness.tsx";

async function openDialog() {
  fireEvent.click(await screen.findByRole("button", { name: "Connect Wallet" }));
  return screen.findByRole("dialog");
}

describe("wallet dialog", () => {
  it("offers 'Install MetaMask' when there is no browser wallet (not the local chain)", async () => {
    fakeApi(sessionRoute({ current: SIGNED_OUT }));
    await renderApp({ config: MAINNET_CONFIG });
    const dialog = await openDialog();
    expect(within(dialog).getByRole("heading", { name: "Install MetaMask" })).toBeTruthy();
    const link = within(dialog).getByRole("link", { name: "Install MetaMask" });
    expect(link.getAttribute("href")).toBe("https://metamask.io/download/");
    expect(within(dialog).queryByRole("button", { name: "MetaMask" })).toBeNull();
    expect(within(dialog).queryByRole("button", { name: "Dev wallet" })).toBeNull();
  });

  it("shows 'Get Started' / 'Connect Your Wallet' with MetaMask and the terms and privacy links", async () => {
    fakeApi(sessionRoute({ current: SIGNED_OUT }));
    fakeInjectedWallet();
    await renderApp({ config: MAINNET_CONFIG });
    const dialog = await openDialog();
    expect(within(dialog).getByRole("heading", { name: "Get Started" })).toBeTruthy();
    expect(within(dialog).getByText("Connect Your Wallet")).toBeTruthy();
    expect(within(dialog).getByRole("button", { name: "MetaMask" })).toBeTruthy();
    expect(within(dialog).getByRole("link", { name: "Terms of Service" }).getAttribute("href")).toBe(
      "/TermsOfServices",
    );
    expect(within(dialog).getByRole("link", { name: "Privacy Policy" }).getAttribute("href")).toBe(
      "/privacyAndPolicy",
    );
    // The Dev wallet exists only on the local chain.
    expect(within(dialog).queryByRole("button", { name: "Dev wallet" })).toBeNull();
  });

  it("offers the Dev wallet with anvil's ten accounts on the local chain", async () => {
    fakeApi(sessionRoute({ current: SIGNED_OUT }));
    await renderApp({ config: LOCAL_CONFIG });
    const dialog = await openDialog();
    expect(within(dialog).getByRole("button", { name: "Dev wallet" })).toBeTruthy();
    const select = within(dialog).getByLabelText("Dev wallet account");
    expect(within(select).getAllByRole("option")).toHaveLength(10);
  });

  it("says who each Dev wallet account is, as the server knows them", async () => {
    fakeApi({
      ...sessionRoute({ current: SIGNED_OUT }),
      "GET /api/dev/accounts": () => ({
        body: {
          data: {
            accounts: ANVIL_ADDRESSES.map((address, index) => ({
              address,
              name: index === 1 ? "Mira Okafor" : null,
              role: index === 0 ? "Moderator" : index === 1 ? "Artist — verified" : "Collector",
            })),
          },
        },
      }),
    });
    await renderApp({ config: LOCAL_CONFIG });
    const dialog = await openDialog();
    const select = within(dialog).getByLabelText("Dev wallet account");
    await waitFor(() =>
      expect(within(select).getAllByRole("option")[1]?.textContent).toBe(
        "Account 1 · Mira Okafor · Artist — verified · 0x70…79C8",
      ),
    );
    const options = within(select).getAllByRole("option");
    expect(options[0]?.textContent).toBe("Account 0 · Moderator · 0xf3…2266");
    expect(options[4]?.textContent).toBe("Account 4 · Collector · 0x15…6A65");
  });

  it("connects, asks to sign, signs in with SIWE and closes", async () => {
    const session: { current: SessionResponse } = { current: SIGNED_OUT };
    const { calls } = fakeApi({
      ...sessionRoute(session),
      "GET /api/auth/nonce": () => ({ body: { nonce: "abcdef0123456789", statement: "Welcome to Easel!" } }),
      "POST /api/auth/verify": () => {
        session.current = signedIn(ALICE);
        return { body: { ok: true } };
      },
    });
    const wallet = fakeInjectedWallet({ address: ALICE, chainId: 1 });
    await renderApp({ config: LOCAL_CONFIG });
    const dialog = await openDialog();
    fireEvent.click(within(dialog).getByRole("button", { name: "MetaMask" }));

    expect(
      await within(dialog).findByRole("heading", { name: "Sign The Message in your Wallet" }),
    ).toBeTruthy();
    expect(within(dialog).getByRole("button", { name: "Disconnect" })).toBeTruthy();
    // The wallet was asked for accounts, then switched to the configured chain (31337 = 0x7a69).
    const methods = wallet.requests.map((r) => r.method);
    expect(methods).toContain("eth_requestAccounts");
    expect(wallet.requests.find((r) => r.method === "wallet_switchEthereumChain")?.params).toEqual([
      { chainId: "0x7a69" },
    ]);

    fireEvent.click(within(dialog).getByRole("button", { name: "Continue" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(await screen.findByRole("button", { name: "Account menu" })).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Connect Wallet" })).toBeNull();
    expect(screen.getByRole("link", { name: "Create" }).getAttribute("href")).toBe("/mint");

    const verify = calls.find((c) => c.path === "/api/auth/verify");
    if (!verify) throw new Error("POST /api/auth/verify was not called");
    const { message, signature } = verify.body as { message: string; signature: string };
    expect(signature).toBe(`0x${"ab".repeat(65)}`);
    const siwe = parseSiweMessage(message);
    expect(siwe).toMatchObject({
      address: ALICE,
      chainId: 31337,
      domain: window.location.host,
      uri: window.location.origin,
      version: "1",
      nonce: "abcdef0123456789",
      statement: "Welcome to Easel!",
    });
    expect(wallet.requests.find((r) => r.method === "personal_sign")).toBeTruthy();
  });

  it("shows the server's message when verification fails and stays on the sign step", async () => {
    fakeApi({
      ...sessionRoute({ current: SIGNED_OUT }),
      "GET /api/auth/nonce": () => ({ body: { nonce: "abcdef0123456789", statement: "Welcome" } }),
      "POST /api/auth/verify": () => ({
        status: 401,
        body: { error: { code: "SIWE_INVALID", message: "The signature does not match the address" } },
      }),
    });
    fakeInjectedWallet();
    await renderApp({ config: LOCAL_CONFIG });
    const dialog = await openDialog();
    fireEvent.click(within(dialog).getByRole("button", { name: "MetaMask" }));
    fireEvent.click(await within(dialog).findByRole("button", { name: "Continue" }));
    expect(await screen.findByText("The signature does not match the address")).toBeTruthy();
    expect(within(dialog).getByRole("heading", { name: "Sign The Message in your Wallet" })).toBeTruthy();
  });

  it("a rejected connection is a calm toast and the dialog closes", async () => {
    fakeApi(sessionRoute({ current: SIGNED_OUT }));
    fakeInjectedWallet({ rejectConnect: true });
    await renderApp({ config: LOCAL_CONFIG });
    const dialog = await openDialog();
    fireEvent.click(within(dialog).getByRole("button", { name: "MetaMask" }));
    expect(await screen.findByText("User rejected the request.")).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
  });

  it("Disconnect on the sign step returns to 'Connect Your Wallet'", async () => {
    fakeApi(sessionRoute({ current: SIGNED_OUT }));
    fakeInjectedWallet();
    await renderApp({ config: LOCAL_CONFIG });
    const dialog = await openDialog();
    fireEvent.click(within(dialog).getByRole("button", { name: "MetaMask" }));
    fireEvent.click(await within(dialog).findByRole("button", { name: "Disconnect" }));
    expect(await within(dialog).findByText("Connect Your Wallet")).toBeTruthy();
  });
});

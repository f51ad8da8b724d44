import { act, fireEvent, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { connect } from "wagmi/actions";
import { ALICE, fakeApi, fakeInjectedWallet, renderApp, sessionRoute, signedIn } from "../test/harness.tsx";
import { accountChangeEffects } from "./AccountWatcher.tsx";
import { markConnected } from "./connectedAt.ts";

const BOB = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

describe("account or network change while signed in", () => {
  it("counts down 5 s, then clears the session and reloads; switching back cancels", async () => {
    markConnected(0); // long ago
    fakeApi(sessionRoute({ current: signedIn(ALICE) }));
    const wallet = fakeInjectedWallet({ address: ALICE });
    const expire = vi.spyOn(accountChangeEffects, "expire").mockResolvedValue();
    const { wagmiConfig } = await renderApp();
    await screen.findByRole("button", { name: "Account menu" });
    const connector = wagmiConfig.connectors.find((c) => c.type === "injected");
    if (!connector) throw new Error("no injected connector");
    await act(() => connect(wagmiConfig, { connector }));
    markConnected(0);

    vi.useFakeTimers({ shouldAdvanceTime: true });
    act(() => wallet.provider.emit("accountsChanged", [BOB]));
    // The watcher loads the wallet code first (a dynamic import); findBy waits 5 s (src/test/setup.ts).
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toContain("signed out in 5 s");

    // Switching back cancels the countdown.
    act(() => wallet.provider.emit("accountsChanged", [ALICE]));
    await waitFor(() => expect(screen.queryByRole("alert")).toBeNull());

    act(() => wallet.provider.emit("accountsChanged", [BOB]));
    await screen.findByRole("alert");
    await act(async () => {
      await vi.advanceTimersByTimeAsync(5_500);
    });
    await waitFor(() => expect(expire).toHaveBeenCalledTimes(1));
  });

  it("gives 8 s right after connecting", async () => {
    fakeApi(sessionRoute({ current: signedIn(ALICE) }));
    const wallet = fakeInjectedWallet({ address: ALICE });
    vi.spyOn(accountChangeEffects, "expire").mockResolvedValue();
    const { wagmiConfig } = await renderApp();
    await screen.findByRole("button", { name: "Account menu" });
    const connector = wagmiConfig.connectors.find((c) => c.type === "injected");
    if (!connector) throw new Error("no injected connector");
    await act(() => connect(wagmiConfig, { connector }));
    markConnected();
    act(() => wallet.provider.emit("chainChanged", "0x1"));
    expect((await screen.findByRole("alert")).textContent).toContain("signed out in 8 s");
  });
});

describe("Disconnect from the account menu", () => {
  it("ends the server session, clears local state and goes home", async () => {
    const session = { current: signedIn(ALICE, { numberOfNewNotif: 3 }) };
    const { calls } = fakeApi({
      ...sessionRoute(session),
      "POST /api/auth/logout": () => {
        session.current = { session: null, profile: null, numberOfNewNotif: 0 };
        return { body: { ok: true } };
      },
    });
    window.localStorage.setItem("easel.something", "1");
    window.sessionStorage.setItem("easel.profile", "{}");
    window.localStorage.setItem("unrelated", "kept");
    const { router } = await renderApp({ path: "/ExploreNFTs" });
    const trigger = await screen.findByRole("button", { name: "Account menu" });
    expect(trigger.getAttribute("aria-describedby")).toBeTruthy();
    expect(screen.getByText("3")).toBeTruthy();

    fireEvent.keyDown(trigger, { key: "Enter" });
    const menu = await screen.findByRole("menu");
    expect(screen.getByRole("menuitem", { name: "Profile" })).toBeTruthy();
    expect(screen.getByRole("menuitem", { name: "Setting" })).toBeTruthy();
    expect(screen.getByRole("menuitem", { name: /Notification/ })).toBeTruthy();
    fireEvent.click(screen.getByRole("menuitem", { name: "Disconnect" }));
    expect(menu).toBeTruthy();

    expect(await screen.findByRole("button", { name: "Connect Wallet" })).toBeTruthy();
    expect(calls.some((c) => c.method === "POST" && c.path === "/api/auth/logout")).toBe(true);
    expect(router.state.location.pathname).toBe("/");
    expect(window.localStorage.getItem("easel.something")).toBeNull();
    expect(window.sessionStorage.getItem("easel.profile")).toBeNull();
    expect(window.localStorage.getItem("unrelated")).toBe("kept");
  });
});

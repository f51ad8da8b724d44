import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { fireEvent, render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { useConfig } from "wagmi";
import { LOCAL_CONFIG } from "../test/harness.tsx";
import { createWagmiConfig } from "./chain.ts";
import { WalletLoaderProvider, WithWallet } from "./walletLoader.tsx";

function ChainName() {
  return <p>wallet ready on {useConfig().chains[0]?.name}</p>;
}

/** A wallet whose code fails to arrive `failures` times, then arrives. */
async function flakyWallet(failures: number) {
  const wagmiConfig = await createWagmiConfig(LOCAL_CONFIG);
  let calls = 0;
  const importWallet = vi.fn(async () => {
    calls += 1;
    if (calls <= failures) throw new TypeError("Failed to fetch dynamically imported module");
    return { prepareWallet: async () => wagmiConfig };
  });
  return { importWallet };
}

function renderWith(importWallet: () => Promise<never> | Promise<unknown>, fallback?: null) {
  return render(
    <QueryClientProvider client={new QueryClient()}>
      <WalletLoaderProvider config={LOCAL_CONFIG} importWallet={importWallet as never}>
        {fallback === null ? (
          <WithWallet fallback={null}>
            <ChainName />
          </WithWallet>
        ) : (
          <WithWallet>
            <ChainName />
          </WithWallet>
        )}
      </WalletLoaderProvider>
    </QueryClientProvider>,
  );
}

describe("WithWallet", () => {
  it("says the wallet could not load instead of waiting forever, and loads it on Try again", async () => {
    const { importWallet } = await flakyWallet(2);
    renderWith(importWallet);
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toContain("The wallet could not load. Check your connection and try again.");
    expect(alert.className).not.toContain("fixed");
    // The failed load is not kept: each Try again fetches the code again.
    fireEvent.click(screen.getByRole("button", { name: "Try again" }));
    await screen.findByRole("alert");
    expect(importWallet).toHaveBeenCalledTimes(2);
    fireEvent.click(screen.getByRole("button", { name: "Try again" }));
    expect(await screen.findByText(/wallet ready on/)).toBeTruthy();
    expect(screen.queryByRole("alert")).toBeNull();
    expect(importWallet).toHaveBeenCalledTimes(3);
  });

  it("floats the failure of a boundary that holds a dialog (no fallback on the page)", async () => {
    const { importWallet } = await flakyWallet(1);
    renderWith(importWallet, null);
    const alert = await screen.findByRole("alert");
    expect(alert.className).toContain("fixed");
    fireEvent.click(screen.getByRole("button", { name: "Try again" }));
    expect(await screen.findByText(/wallet ready on/)).toBeTruthy();
  });
});

import type { PublicConfig, SessionResponse } from "@easel/common";
import { QueryClient } from "@tanstack/react-query";
import { render } from "@testing-library/react";
import { createMemoryRouter, type RouteObject } from "react-router";
import { RouterProvider } from "react-router/dom";
import { type EIP1193Provider, type Hex, numberToHex } from "viem";
import { vi } from "vitest";
import { Providers } from "../app/Providers.tsx";
import { routes as appRoutes } from "../app/routes.tsx";
import { SIGNED_OUT } from "../auth/session.ts";
import { createWagmiConfig } from "../web3/chain.ts";

export const LOCAL_CONFIG: PublicConfig = {
  chainId: 31337,
  localChain: true,
  rpcUrl: "http://127.0.0.1:8545",
  explorerUrl: null,
  contracts: {},
  ens: false,
  mediaUrl: null,
};

export const MAINNET_CONFIG: PublicConfig = {
  chainId: 1,
  localChain: false,
  rpcUrl: "http://127.0.0.1:1",
  explorerUrl: "https://etherscan.io",
  contracts: {},
  ens: true,
  mediaUrl: null,
};

export const ALICE = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8" as const;

export function signedIn(
  address: string = ALICE,
  overrides: Partial<SessionResponse> = {},
  active = true,
): SessionResponse {
  return {
    session: { address, chainId: 31337, expiresAt: new Date(Date.now() + 3_600_000).toISOString() },
    profile: {
      address,
      username: null,
      name: null,
      avatar: null,
      active,
      permission: { collection: { lazyCollection: 0, lazyCollectionsLeft: 0 }, mint: false },
    },
    numberOfNewNotif: 0,
    ...overrides,
  };
}

type Handler = (init: RequestInit | undefined, url: URL) => { status?: number; body?: unknown } | undefined;

/**
 * A fake API: `routes` maps "METHOD /path" to a handler. Unknown routes answer 404 like Fastify does.
 * Every call is recorded in `calls`.
 */
export function fakeApi(routes: Record<string, Handler>) {
  const calls: { method: string; path: string; body: unknown }[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), "http://localhost");
    const method = (init?.method ?? "GET").toUpperCase();
    const body = typeof init?.body === "string" ? JSON.parse(init.body) : undefined;
    calls.push({ method, path: url.pathname, body });
    const handler = routes[`${method} ${url.pathname}`];
    const result = handler?.(init, url);
    if (!handler || !result) {
      return new Response(
        JSON.stringify({
          message: `Route ${method}:${url.pathname} not found`,
          error: "Not Found",
          statusCode: 404,
        }),
        { status: 404, headers: { "Content-Type": "application/json" } },
      );
    }
    return new Response(result.body === undefined ? "" : JSON.stringify(result.body), {
      status: result.status ?? 200,
      headers: { "Content-Type": "application/json" },
    });
  });
  vi.stubGlobal("fetch", fetchMock);
  return { calls, fetchMock };
}

/** Session endpoint that answers whatever `state.current` holds (tests flip it to sign in). */
export function sessionRoute(state: { current: SessionResponse }): Record<string, Handler> {
  return { "GET /api/auth/session": () => ({ body: state.current }) };
}

/** A minimal injected EIP-1193 wallet (like MetaMask) for the real `injected()` connector path. */
export function fakeInjectedWallet({
  address = ALICE,
  chainId = 31337,
  rejectConnect = false,
  signature = `0x${"ab".repeat(65)}` as Hex,
}: {
  address?: string;
  chainId?: number;
  rejectConnect?: boolean;
  signature?: Hex;
} = {}) {
  const listeners = new Map<string, Set<(...args: unknown[]) => void>>();
  const requests: { method: string; params?: unknown }[] = [];
  let connected = false;
  const provider = {
    // MetaMask sets this; the dialog names an unannounced wallet by it.
    isMetaMask: true,
    async request({ method, params }: { method: string; params?: unknown }) {
      requests.push({ method, params });
      switch (method) {
        case "eth_requestAccounts":
          if (rejectConnect) throw Object.assign(new Error("User rejected the request."), { code: 4001 });
          connected = true;
          return [address];
        case "eth_accounts":
          return connected ? [address] : [];
        case "eth_chainId":
          return numberToHex(chainId);
        case "personal_sign":
          return signature;
        case "wallet_switchEthereumChain":
          chainId = Number.parseInt((params as [{ chainId: string }])[0].chainId, 16);
          for (const listener of listeners.get("chainChanged") ?? []) listener(numberToHex(chainId));
          return null;
        default:
          throw Object.assign(new Error(`Method ${method} is not supported`), { code: 4200 });
      }
    },
    on(event: string, listener: (...args: unknown[]) => void) {
      if (!listeners.has(event)) listeners.set(event, new Set());
      listeners.get(event)?.add(listener);
    },
    removeListener(event: string, listener: (...args: unknown[]) => void) {
      listeners.get(event)?.delete(listener);
    },
    emit(event: string, ...args: unknown[]) {
      // As a real wallet: what it announces is what it answers after (a late eth_accounts, say from wagmi's
      // reconnect, must not bring the old account back).
      if (event === "accountsChanged") {
        const [next] = args[0] as string[];
        if (next) address = next;
        else connected = false;
      }
      if (event === "chainChanged") chainId = Number.parseInt(args[0] as string, 16);
      for (const listener of listeners.get(event) ?? []) listener(...args);
    },
  };
  window.ethereum = provider as unknown as EIP1193Provider;
  return { provider, requests };
}

/** Renders the real app (providers + route table) at `path`. */
export async function renderApp({
  path = "/",
  config = LOCAL_CONFIG,
  routes = appRoutes,
}: {
  path?: string;
  config?: PublicConfig;
  routes?: RouteObject[];
} = {}) {
  const wagmiConfig = await createWagmiConfig(config);
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const view = render(
    <Providers config={config} wagmiConfig={wagmiConfig} queryClient={queryClient}>
      <RouterProvider router={router} />
    </Providers>,
  );
  return { ...view, router, queryClient, wagmiConfig };
}

export { SIGNED_OUT };

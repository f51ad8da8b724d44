import { Outlet } from "react-router";
import { WithWallet } from "./walletLoader.tsx";
// Loaded with this route, so the wallet code downloads together with the page's own code.
import "./walletConfig.ts";

/** A route layout for the pages that read the chain or send transactions. */
export function Component() {
  return (
    <WithWallet>
      <Outlet />
    </WithWallet>
  );
}

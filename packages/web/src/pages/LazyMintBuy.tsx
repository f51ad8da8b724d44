import { LazyMintBuyPage } from "../features/trade/components/LazyScreens.tsx";

export function Component() {
  return <LazyMintBuyPage />;
}

import { LazyMintChangePricePage } from "../features/trade/components/LazyScreens.tsx";

export function Component() {
  return <LazyMintChangePricePage />;
}

import { FixedPriceBuyPage } from "../features/trade/components/FixedPriceScreens.tsx";

export function Component() {
  return <FixedPriceBuyPage />;
}

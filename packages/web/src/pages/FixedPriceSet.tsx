import { FixedPriceSetPage } from "../features/trade/components/FixedPriceScreens.tsx";

export function Component() {
  return <FixedPriceSetPage />;
}

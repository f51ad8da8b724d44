import { FixedPriceManagePage } from "../features/trade/components/FixedPriceScreens.tsx";

export function Component() {
  return <FixedPriceManagePage />;
}

import { FixedPriceManagePage } from "../features/trade/components/FixedPriceManagePage.tsx";

export function Component() {
  return <FixedPriceManagePage />;
}

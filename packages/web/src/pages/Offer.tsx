import { OfferPage } from "../features/trade/components/OfferScreens.tsx";

export function Component() {
  return <OfferPage />;
}

import { AcceptOfferPage } from "../features/trade/components/OfferScreens.tsx";

export function Component() {
  return <AcceptOfferPage />;
}

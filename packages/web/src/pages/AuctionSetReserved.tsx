import { AuctionSetReservedPage } from "../features/trade/components/AuctionScreens.tsx";

export function Component() {
  return <AuctionSetReservedPage />;
}

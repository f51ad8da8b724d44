import { AuctionSetStandardPage } from "../features/trade/components/AuctionScreens.tsx";

export function Component() {
  return <AuctionSetStandardPage />;
}

import { AuctionPlaceBidPage } from "../features/trade/components/AuctionScreens.tsx";

export function Component() {
  return <AuctionPlaceBidPage reserved={false} />;
}

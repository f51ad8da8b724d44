import { AuctionPlaceBidPage } from "../features/trade/components/AuctionPlaceBidPage.tsx";

export function Component() {
  return <AuctionPlaceBidPage reserved={false} />;
}

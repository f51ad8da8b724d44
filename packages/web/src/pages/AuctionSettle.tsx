import { AuctionSettlePage } from "../features/trade/components/AuctionScreens.tsx";

export function Component() {
  return <AuctionSettlePage />;
}

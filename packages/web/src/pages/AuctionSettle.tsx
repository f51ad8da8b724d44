import { AuctionSettlePage } from "../features/trade/components/AuctionSettlePage.tsx";

export function Component() {
  return <AuctionSettlePage />;
}

import { AuctionSetStandardPage } from "../features/trade/components/AuctionSetStandardPage.tsx";

export function Component() {
  return <AuctionSetStandardPage />;
}

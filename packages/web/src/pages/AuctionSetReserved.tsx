import { AuctionSetReservedPage } from "../features/trade/components/AuctionSetReservedPage.tsx";

export function Component() {
  return <AuctionSetReservedPage />;
}

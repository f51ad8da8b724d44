import { AuctionManagePage } from "../features/trade/components/AuctionManagePage.tsx";

export function Component() {
  return <AuctionManagePage reserved />;
}

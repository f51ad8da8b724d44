import { AuctionManagePage } from "../features/trade/components/AuctionScreens.tsx";

export function Component() {
  return <AuctionManagePage reserved={false} />;
}

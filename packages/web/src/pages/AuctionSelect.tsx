import { AuctionSelectPage } from "../features/trade/components/AuctionScreens.tsx";

export function Component() {
  return <AuctionSelectPage />;
}

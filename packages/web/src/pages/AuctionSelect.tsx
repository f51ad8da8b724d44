import { AuctionSelectPage } from "../features/trade/components/AuctionSelectPage.tsx";

export function Component() {
  return <AuctionSelectPage />;
}

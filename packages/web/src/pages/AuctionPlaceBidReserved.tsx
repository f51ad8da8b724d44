import { ComingSoon } from "../ui/ComingSoon.tsx";

export function Component() {
  return <ComingSoon title="Place a Bid in a Reserved Auction" />;
}

import { ComingSoon } from "../ui/ComingSoon.tsx";

export function Component() {
  return <ComingSoon title="Set Reserved Auction" />;
}

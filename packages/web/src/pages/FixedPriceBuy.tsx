import { ComingSoon } from "../components/ComingSoon.tsx";

export function Component() {
  return <ComingSoon title="Buy Now" />;
}

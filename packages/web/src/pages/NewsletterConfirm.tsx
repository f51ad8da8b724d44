import { ConfirmSubscription } from "../features/newsletter/components/ConfirmSubscription.tsx";

export function Component() {
  return <ConfirmSubscription />;
}

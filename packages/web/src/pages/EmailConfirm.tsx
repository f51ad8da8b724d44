import { ConfirmEmail } from "../features/settings/components/ConfirmEmail.tsx";

export function Component() {
  return <ConfirmEmail />;
}

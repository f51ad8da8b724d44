import { MintPage } from "../features/items/components/MintPage.tsx";

export function Component() {
  return <MintPage />;
}

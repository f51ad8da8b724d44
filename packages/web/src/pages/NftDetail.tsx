import { ItemPage } from "../features/items/components/ItemPage.tsx";

export function Component() {
  return <ItemPage />;
}

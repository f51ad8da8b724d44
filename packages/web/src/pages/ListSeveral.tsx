import { ListSeveralPage } from "../features/bulk-listing/components/ListSeveralPage.tsx";

/** /List/several?collection=: list several works with one signature. */
export function Component() {
  return <ListSeveralPage />;
}

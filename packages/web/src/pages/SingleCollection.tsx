import { useAppConfig } from "../api/appConfig.tsx";
import { CollectionView } from "../features/browse/components/CollectionView.tsx";

/** /singleCollection: Easel's shared default collection (items with no category), like any collection page. */
export function Component() {
  const config = useAppConfig();
  return <CollectionView name={config.contracts.defaultCollection ?? ""} />;
}

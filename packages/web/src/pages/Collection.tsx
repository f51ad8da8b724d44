import { useParams } from "react-router";
import { CollectionView } from "../features/browse/components/CollectionView.tsx";

/** /collection/{name}: a collection by its name (or its address when an older collection has the name). */
export function Component() {
  const { name = "" } = useParams();
  return <CollectionView key={name} name={name} />;
}

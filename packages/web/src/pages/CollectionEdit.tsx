import { useParams } from "react-router";
import { CollectionEditor } from "../features/browse/components/CollectionEditor.tsx";

export function Component() {
  const { username = "" } = useParams();
  return <CollectionEditor name={username} />;
}

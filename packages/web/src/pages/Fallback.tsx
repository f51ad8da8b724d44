import { PageLoader } from "../components/PageLoader.tsx";

export function Component() {
  return <PageLoader />;
}

import { PageLoader } from "../ui/PageLoader.tsx";

export function Component() {
  return <PageLoader />;
}

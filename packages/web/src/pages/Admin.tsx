import { AdminPage } from "../features/moderation/components/AdminPage.tsx";

export function Component() {
  return <AdminPage />;
}

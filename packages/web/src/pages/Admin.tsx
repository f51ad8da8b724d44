import { AdminPage } from "../admin/AdminPage.tsx";

export function Component() {
  return <AdminPage />;
}

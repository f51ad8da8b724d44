import { useSession } from "../auth/session.ts";
import { ProfileView } from "../features/profile/components/ProfileView.tsx";

/** /profile: the signed-in user's own profile (the route is guarded). */
export function Component() {
  const { session } = useSession();
  if (!session) return null;
  return <ProfileView userkey={session.address} />;
}

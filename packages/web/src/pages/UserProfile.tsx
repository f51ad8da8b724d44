import { useParams } from "react-router";
import { ProfileView } from "../features/profile/components/ProfileView.tsx";

/** /profile/{username}: anyone's profile, by username, address or ENS-style name. */
export function Component() {
  const { username = "" } = useParams();
  return <ProfileView key={username} userkey={username} />;
}

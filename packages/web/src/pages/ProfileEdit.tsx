import { useLocation } from "react-router";
import { ComingSoon } from "../components/ComingSoon.tsx";

/** Profile settings; opened with the navigation state "listNotification" it is the notifications list. */
export function Component() {
  const location = useLocation();
  return <ComingSoon title={location.state === "listNotification" ? "Notifications" : "Profile settings"} />;
}

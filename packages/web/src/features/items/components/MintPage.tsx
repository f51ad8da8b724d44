import { MINT_MESSAGES } from "@easel/common";
import { Link } from "react-router";
import { useSession } from "../../../auth/session.ts";
import { usePageTitle } from "../../../lib/usePageTitle.ts";
import { buttonClass } from "../../../ui/Button.tsx";
import { MintForm } from "./mintForm/MintForm.tsx";

/** /mint: verified artists create an item; everyone else learns why not and where to apply. */
export function MintPage() {
  usePageTitle("Create NFT");
  const { profile } = useSession();
  if (!profile?.permission.mint) {
    return (
      <section className="mx-auto flex max-w-xl flex-col items-start gap-4 px-4 py-16">
        <h1 className="text-3xl font-bold tracking-tight">Create NFT</h1>
        <p className="text-neutral-700 dark:text-neutral-300">{MINT_MESSAGES.notArtist}</p>
        <Link to="/applyToJoin" className={buttonClass("primary")}>
          Apply to join
        </Link>
      </section>
    );
  }
  return <MintForm />;
}

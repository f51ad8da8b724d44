import { Link, useRouteError } from "react-router";
import { buttonClass } from "../ui/Button.tsx";

export const ERROR_TEXT = "Something went wrong.";

/** A page-level render failure (spec: 'Something went wrong.'). */
export function ErrorPage() {
  const error = useRouteError();
  if (import.meta.env.DEV && error) console.error(error);
  return (
    <section role="alert" className="mx-auto w-full max-w-xl px-4 py-24 text-center">
      <h1 className="text-3xl font-bold tracking-tight">{ERROR_TEXT}</h1>
      <p className="mt-4 text-neutral-600 dark:text-neutral-400">Try again, or go back to the homepage.</p>
      <div className="mt-8 flex justify-center gap-3">
        <button type="button" className={buttonClass("secondary")} onClick={() => window.location.reload()}>
          Reload
        </button>
        <Link to="/" className={buttonClass("primary")} reloadDocument>
          Back to Homepage
        </Link>
      </div>
    </section>
  );
}

import { Link } from "react-router";
import { usePageTitle } from "../lib/usePageTitle.ts";
import { buttonClass } from "./Button.tsx";

/** The not-found page: unknown routes, and items or pages that do not exist. */
export function NotFound() {
  usePageTitle("Page not found");
  return (
    <section className="mx-auto w-full max-w-xl px-4 py-24 text-center">
      <p className="text-sm font-semibold text-accent-700 tabular-nums dark:text-accent-300">404</p>
      <h1 className="mt-2 text-3xl font-bold tracking-tight sm:text-4xl">Page not found</h1>
      <p className="mt-4 text-neutral-600 dark:text-neutral-400">
        The page you are looking for does not exist or has moved.
      </p>
      <Link to="/" className={buttonClass("primary", "mt-8")}>
        Back to Homepage
      </Link>
    </section>
  );
}

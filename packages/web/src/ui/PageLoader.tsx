import { Spinner } from "./Spinner.tsx";

/** The loading screen (spec route /fallback), also shown while the first page loads. */
export function PageLoader() {
  return (
    <div className="flex flex-1 items-center justify-center py-32" role="status" aria-label="Loading">
      <Spinner className="size-10 text-accent-600 dark:text-accent-400" />
    </div>
  );
}

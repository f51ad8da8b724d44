import { usePageTitle } from "../lib/usePageTitle.ts";

/** The body of a page that is not built yet: its title and one honest sentence, nothing else. */
export function ComingSoon({ title }: { title: string }) {
  usePageTitle(title);
  return (
    <section className="mx-auto w-full max-w-3xl px-4 py-16 sm:py-24">
      <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">{title}</h1>
      <p className="mt-4 text-neutral-600 dark:text-neutral-400">
        This part of Easel is not built yet. It is coming soon.
      </p>
    </section>
  );
}

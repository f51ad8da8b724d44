import type { ReactNode } from "react";
import { usePageTitle } from "../lib/usePageTitle.ts";

/** A readable text page: title, optional lead, sections. */
export function ProsePage({
  title,
  lead,
  children,
  banner,
}: {
  title: string;
  lead?: ReactNode;
  children: ReactNode;
  banner?: ReactNode;
}) {
  usePageTitle(title);
  return (
    <article className="w-full">
      {banner}
      <div className="mx-auto w-full max-w-3xl px-4 py-12 sm:py-16">
        <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">{title}</h1>
        {lead ? <div className="mt-4 text-lg text-neutral-600 dark:text-neutral-400">{lead}</div> : null}
        <div className="prose-easel mt-10 flex flex-col gap-8">{children}</div>
      </div>
    </article>
  );
}

export function ProseSection({ id, title, children }: { id?: string; title: string; children: ReactNode }) {
  return (
    <section id={id} aria-labelledby={id ? `${id}-title` : undefined} className="scroll-mt-20">
      <h2 id={id ? `${id}-title` : undefined} className="text-xl font-semibold tracking-tight">
        {title}
      </h2>
      <div className="mt-3 flex flex-col gap-3 leading-relaxed text-neutral-700 dark:text-neutral-300 [&_a]:text-accent-700 [&_a]:underline dark:[&_a]:text-accent-300 [&_li]:ml-5 [&_ul]:list-disc [&_ul]:space-y-1">
        {children}
      </div>
    </section>
  );
}

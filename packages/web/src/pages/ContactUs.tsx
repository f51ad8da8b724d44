import { ContactForm } from "../features/contact/components/ContactForm.tsx";
import { usePageTitle } from "../lib/usePageTitle.ts";

export function Component() {
  usePageTitle("Get In Touch");
  return (
    <section className="mx-auto w-full max-w-2xl px-4 py-12 sm:py-16">
      <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">Get In Touch</h1>
      <p className="mt-3 text-neutral-600 dark:text-neutral-400">
        Questions, press, partnerships or a problem with your account: write to us and the Easel team will
        answer by email.
      </p>
      <div className="mt-8">
        <ContactForm />
      </div>
    </section>
  );
}

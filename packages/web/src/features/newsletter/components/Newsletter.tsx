import { type FormEvent, useId, useState } from "react";
import { toast } from "sonner";
import { errorMessage } from "../../../api/client.ts";
import { Button } from "../../../ui/Button.tsx";
import { subscribeToNewsletter } from "../api/newsletter.ts";

/** Spec, browsing section 5: newsletter email required ('Required') and well-formed ('invalid email address'). */
export function validateNewsletterEmail(email: string): string | null {
  const value = email.trim();
  if (!value) return "Required";
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value)) return "invalid email address";
  return null;
}

export const NEWSLETTER_SUCCESS =
  "Thanks for Subscribing. Please check your email to confirm your subscription.";

export function Newsletter() {
  const inputId = useId();
  const errorId = useId();
  const [email, setEmail] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (sending) return;
    const problem = validateNewsletterEmail(email);
    setError(problem);
    if (problem) return;
    setSending(true);
    try {
      await subscribeToNewsletter(email.trim());
      toast.success(NEWSLETTER_SUCCESS);
      setEmail("");
    } catch (failure) {
      toast.error(errorMessage(failure));
    } finally {
      setSending(false);
    }
  }

  return (
    <form noValidate onSubmit={onSubmit} className="w-full max-w-md">
      <label htmlFor={inputId} className="block text-sm font-semibold">
        Get the latest Easel updates
      </label>
      <div className="mt-2 flex flex-col gap-2 min-[420px]:flex-row">
        <input
          id={inputId}
          type="email"
          inputMode="email"
          autoComplete="email"
          placeholder="Your email address"
          value={email}
          onChange={(event) => {
            setEmail(event.target.value);
            if (error) setError(null);
          }}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          className="min-w-0 flex-1 rounded-lg border border-neutral-300 bg-white px-3 py-2 text-sm dark:border-neutral-700 dark:bg-neutral-950 aria-invalid:border-red-600"
        />
        <Button type="submit" loading={sending}>
          Subscribe
        </Button>
      </div>
      {error ? (
        <p id={errorId} className="mt-1.5 text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      ) : null}
    </form>
  );
}

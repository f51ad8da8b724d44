import {
  APPLICATION_DESCRIPTION_MAX,
  APPLICATION_ROLE_LABELS,
  APPLICATION_ROLES,
  type ArtistApplication,
  artistApplicationRequestSchema,
  MESSAGES,
} from "@easel/common";
import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { Link } from "react-router";
import { toast } from "sonner";
import type { z } from "zod";
import { errorMessage } from "../../../api/client.ts";
import { Button, buttonClass } from "../../../ui/Button.tsx";
import { applyServerErrors, FieldShell, inputClass, TextAreaField, TextField } from "../../../ui/Field.tsx";
import { Loading } from "../../../ui/Loading.tsx";
import { useMyApplication, useSubmitApplication } from "../api/application.ts";

type ApplicationInput = z.input<typeof artistApplicationRequestSchema>;
type ApplicationOutput = z.output<typeof artistApplicationRequestSchema>;

const STATUS_TEXT: Record<ArtistApplication["status"], string> = {
  pending: "Your application is being reviewed. We will be in touch soon.",
  approved: "Your application was approved: you are a verified artist and can mint on Easel.",
  rejected: "Your application was not approved this time. You can edit it and apply again.",
};

/** The signed-in member's application: completion view -> Edit -> form -> thanks. */
export function Application() {
  const [mode, setMode] = useState<"view" | "form" | "thanks">("view");
  const mine = useMyApplication();
  if (mine.isPending) return <Loading label="Loading your application" />;
  if (mine.isError) return <p className="text-red-700 dark:text-red-400">{errorMessage(mine.error)}</p>;
  const application = mine.data;

  if (mode === "thanks") {
    return (
      <div
        role="status"
        className="rounded-2xl border border-accent-300 bg-accent-50 p-8 text-center dark:border-accent-500/40 dark:bg-accent-500/10"
      >
        <p className="text-xl font-semibold">{MESSAGES.applicationThanks}</p>
        <div className="mt-6 flex justify-center gap-3">
          <Button variant="secondary" onClick={() => setMode("view")}>
            See my application
          </Button>
          <Link to="/" className={buttonClass("primary")}>
            Home Page
          </Link>
        </div>
      </div>
    );
  }
  if (mode === "form") {
    return (
      <ApplicationForm
        application={application}
        onDone={() => setMode("thanks")}
        onCancel={() => setMode("view")}
      />
    );
  }
  return (
    <div className="rounded-2xl border border-neutral-200 p-6 dark:border-neutral-800">
      {application ? (
        <>
          <p className="text-sm font-semibold tracking-wide text-neutral-500 uppercase">
            Status: <span data-testid="application-status">{application.status}</span>
          </p>
          <p className="mt-2">{STATUS_TEXT[application.status]}</p>
          <dl className="mt-5 grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[10rem_1fr]">
            <dt className="text-neutral-500">Name</dt>
            <dd>{application.name}</dd>
            <dt className="text-neutral-500">Role</dt>
            <dd>{APPLICATION_ROLE_LABELS[application.role]}</dd>
            <dt className="text-neutral-500">Profile URL</dt>
            <dd className="break-all">{application.profileURL}</dd>
            <dt className="text-neutral-500">Email</dt>
            <dd>{application.email}</dd>
          </dl>
        </>
      ) : (
        <p>You have not applied yet. Choose Edit to fill in your application.</p>
      )}
      <div className="mt-6 flex gap-3">
        {application?.status === "approved" ? null : <Button onClick={() => setMode("form")}>Edit</Button>}
        <Link to="/" className={buttonClass("secondary")}>
          Home Page
        </Link>
      </div>
    </div>
  );
}

export function ApplicationForm({
  application,
  onDone,
  onCancel,
}: {
  application: ArtistApplication | null;
  onDone: () => void;
  onCancel: () => void;
}) {
  const submit = useSubmitApplication();
  const {
    register,
    handleSubmit,
    setError,
    watch,
    formState: { errors, isSubmitting },
  } = useForm<ApplicationInput, unknown, ApplicationOutput>({
    resolver: zodResolver(artistApplicationRequestSchema),
    defaultValues: {
      profileURL: application?.profileURL ?? "",
      name: application?.name ?? "",
      email: application?.email ?? "",
      phone: application?.phone ?? "",
      role: application?.role ?? ("" as ApplicationInput["role"]),
      portfolio: application?.portfolio ?? "",
      description: application?.description ?? "",
      rights: false as unknown as true,
      terms: false as unknown as true,
    },
  });
  const description = String(watch("description") ?? "");
  const onSubmit = handleSubmit(async (values) => {
    try {
      await submit.mutateAsync(values);
      onDone();
    } catch (error) {
      if (
        applyServerErrors(error, setError, [
          "profileURL",
          "name",
          "email",
          "phone",
          "role",
          "portfolio",
          "description",
          "rights",
          "terms",
        ])
      )
        return;
      toast.error(errorMessage(error));
    }
  });
  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-5" aria-label="Artist application">
      <TextField
        label="Profile URL"
        type="url"
        placeholder="https://"
        error={errors.profileURL?.message}
        hint="A page that shows your work or presence (website, Instagram, X...)."
        {...register("profileURL")}
      />
      <TextField label="Name" autoComplete="name" error={errors.name?.message} {...register("name")} />
      <TextField
        label="Email"
        type="email"
        autoComplete="email"
        error={errors.email?.message}
        {...register("email")}
      />
      <TextField
        label="Phone"
        type="tel"
        autoComplete="tel"
        error={errors.phone?.message}
        {...register("phone")}
      />
      <FieldShell label="Role" error={errors.role?.message}>
        {({ id, describedBy, invalid }) => (
          <select
            id={id}
            aria-invalid={invalid || undefined}
            aria-describedby={describedBy}
            className={inputClass}
            {...register("role")}
          >
            <option value="">Select your role</option>
            {APPLICATION_ROLES.map((role) => (
              <option key={role} value={role}>
                {APPLICATION_ROLE_LABELS[role]}
              </option>
            ))}
          </select>
        )}
      </FieldShell>
      <TextField
        label="Portfolio link"
        type="url"
        placeholder="https://"
        error={errors.portfolio?.message}
        {...register("portfolio")}
      />
      <TextAreaField
        label="Tell us about your work"
        rows={6}
        error={errors.description?.message}
        hint={`${description.length} / ${APPLICATION_DESCRIPTION_MAX}`}
        {...register("description")}
      />
      <Agreement
        label="I own the rights to the works I will mint on Easel."
        error={errors.rights?.message}
        {...register("rights")}
      />
      <Agreement
        label={
          <>
            I accept the{" "}
            <Link to="/TermsOfServices" className="text-accent-700 underline dark:text-accent-300">
              Terms of Service
            </Link>
            .
          </>
        }
        error={errors.terms?.message}
        {...register("terms")}
      />
      <div className="flex gap-3">
        <Button variant="secondary" onClick={onCancel} disabled={isSubmitting}>
          Cancel
        </Button>
        <Button type="submit" loading={isSubmitting} loadingText="Sending">
          Submit application
        </Button>
      </div>
    </form>
  );
}

function Agreement({
  label,
  error,
  ref,
  ...input
}: React.InputHTMLAttributes<HTMLInputElement> & {
  label: React.ReactNode;
  error?: string | undefined;
  ref?: React.Ref<HTMLInputElement>;
}) {
  return (
    <div>
      <label className="flex items-start gap-3 text-sm">
        <input
          ref={ref}
          type="checkbox"
          className="mt-0.5 size-4 accent-accent-600"
          aria-invalid={error ? true : undefined}
          {...input}
        />
        <span>{label}</span>
      </label>
      {error ? <p className="mt-1 text-sm text-red-700 dark:text-red-400">{error}</p> : null}
    </div>
  );
}

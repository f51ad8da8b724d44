import {
  MESSAGES,
  REPORT_REASONS,
  type REPORT_TARGETS,
  type ReportReason,
  reportRequestSchema,
} from "@easel/common";
import { zodResolver } from "@hookform/resolvers/zod";
import { useId, useState } from "react";
import { useForm } from "react-hook-form";
import { toast } from "sonner";
import type { z } from "zod";
import { errorMessage } from "../../../api/client.ts";
import { Button } from "../../../ui/Button.tsx";
import { applyServerErrors, TextAreaField, TextField } from "../../../ui/Field.tsx";
import { Modal } from "../../../ui/Modal.tsx";
import { submitReport } from "../api/moderation.ts";

type ReportInput = z.input<typeof reportRequestSchema>;
type ReportOutput = z.output<typeof reportRequestSchema>;

/**
 * Report an Issue: step 1 picks a reason (Continue looks disabled until one is picked, and warns
 * 'Please, select a reason.'), step 2 asks for email and description. On success the dialog shows the
 * spec's intended text (the old product only raised an alert 'success').
 */
export function ReportDialog({
  open,
  onOpenChange,
  targetType,
  targetId,
  defaultEmail,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  targetType: (typeof REPORT_TARGETS)[number];
  targetId: string;
  defaultEmail?: string | null;
}) {
  return (
    <Modal open={open} onOpenChange={onOpenChange} title="Report an Issue">
      {open ? (
        <ReportSteps
          targetType={targetType}
          targetId={targetId}
          defaultEmail={defaultEmail ?? ""}
          onDone={() => onOpenChange(false)}
        />
      ) : null}
    </Modal>
  );
}

export function ReportSteps({
  targetType,
  targetId,
  defaultEmail,
  onDone,
}: {
  targetType: (typeof REPORT_TARGETS)[number];
  targetId: string;
  defaultEmail: string;
  onDone: () => void;
}) {
  const [step, setStep] = useState<"reason" | "details" | "done">("reason");
  const [reason, setReason] = useState<ReportReason | null>(null);
  const [reasonError, setReasonError] = useState<string | null>(null);
  const groupId = useId();
  const form = useForm<ReportInput, unknown, ReportOutput>({
    resolver: zodResolver(reportRequestSchema),
    defaultValues: { reason: undefined, email: defaultEmail, description: "", targetType, targetId },
  });
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = form;

  if (step === "done") {
    return (
      <div role="status" className="flex flex-col gap-5">
        <p className="text-neutral-800 dark:text-neutral-200">{MESSAGES.reportRegistered}</p>
        <Button onClick={onDone}>Close</Button>
      </div>
    );
  }

  if (step === "reason") {
    return (
      <div className="flex flex-col gap-5">
        <fieldset aria-describedby={reasonError ? `${groupId}-error` : undefined}>
          <legend className="text-sm font-semibold">select a Reason</legend>
          <div className="mt-3 flex flex-col gap-2">
            {REPORT_REASONS.map((option) => (
              <label
                key={option}
                className="flex cursor-pointer items-center gap-3 rounded-lg border border-neutral-200 px-3 py-2.5 has-[:checked]:border-accent-500 has-[:checked]:bg-accent-50 dark:border-neutral-800 dark:has-[:checked]:bg-accent-500/10"
              >
                <input
                  type="radio"
                  name={groupId}
                  value={option}
                  checked={reason === option}
                  onChange={() => {
                    setReason(option);
                    setReasonError(null);
                  }}
                  className="accent-accent-600"
                />
                <span className="text-sm">{option}</span>
              </label>
            ))}
          </div>
          {reasonError ? (
            <p id={`${groupId}-error`} className="mt-2 text-sm text-red-700 dark:text-red-400">
              {reasonError}
            </p>
          ) : null}
        </fieldset>
        <Button
          aria-disabled={reason === null}
          className={reason === null ? "opacity-60" : ""}
          onClick={() => {
            if (!reason) {
              setReasonError(MESSAGES.reasonRequired);
              toast.warning(MESSAGES.reasonRequired);
              return;
            }
            form.setValue("reason", reason);
            setStep("details");
          }}
        >
          Continue
        </Button>
      </div>
    );
  }

  const onSubmit = handleSubmit(async (values) => {
    try {
      await submitReport(values);
      setStep("done");
    } catch (error) {
      if (applyServerErrors(error, setError, ["email", "description"])) return;
      toast.error(errorMessage(error));
    }
  });

  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
      <p className="text-sm text-neutral-600 dark:text-neutral-400">
        Reason: <strong className="text-neutral-900 dark:text-neutral-100">{reason}</strong>
      </p>
      <TextField
        label="Email"
        type="email"
        autoComplete="email"
        error={errors.email?.message}
        {...register("email")}
      />
      <TextAreaField
        label="Issue description"
        error={errors.description?.message}
        hint="10 to 500 characters."
        {...register("description")}
      />
      <div className="flex gap-2">
        <Button variant="secondary" onClick={() => setStep("reason")} disabled={isSubmitting}>
          Back
        </Button>
        <Button type="submit" className="flex-1" loading={isSubmitting}>
          Submit
        </Button>
      </div>
    </form>
  );
}

import { CONTACT_NAME_MIN, contactRequestSchema, MESSAGES } from "@easel/common";
import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { toast } from "sonner";
import type { z } from "zod";
import { errorMessage } from "../../../api/client.ts";
import { Button } from "../../../ui/Button.tsx";
import { applyServerErrors, TextAreaField, TextField } from "../../../ui/Field.tsx";
import { sendContactMessage } from "../api/contact.ts";

type ContactInput = z.input<typeof contactRequestSchema>;
type ContactOutput = z.output<typeof contactRequestSchema>;

/** Contact: 'Get In Touch'. The message is stored and mailed to Easel's operators (the old form only logged it). */
export function ContactForm() {
  const [sent, setSent] = useState(false);
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<ContactInput, unknown, ContactOutput>({
    resolver: zodResolver(contactRequestSchema),
    defaultValues: { name: "", email: "", message: "" },
  });
  const onSubmit = handleSubmit(async (values) => {
    try {
      const result = await sendContactMessage(values);
      toast.success(result.message || MESSAGES.contactSent);
      reset();
      setSent(true);
    } catch (error) {
      if (applyServerErrors(error, setError, ["name", "email", "message"])) return;
      toast.error(errorMessage(error));
    }
  });
  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-5" aria-label="Get In Touch">
      <TextField
        label="Name"
        autoComplete="name"
        error={errors.name?.message}
        hint={`At least ${CONTACT_NAME_MIN} characters.`}
        {...register("name", { onChange: () => setSent(false) })}
      />
      <TextField
        label="Email"
        type="email"
        autoComplete="email"
        error={errors.email?.message}
        {...register("email")}
      />
      <TextAreaField label="Message" rows={6} error={errors.message?.message} {...register("message")} />
      <div className="flex items-center gap-4">
        <Button type="submit" loading={isSubmitting} loadingText="Sending">
          Send message
        </Button>
        {sent ? (
          <p role="status" className="text-sm text-neutral-700 dark:text-neutral-300">
            {MESSAGES.contactSent}
          </p>
        ) : null}
      </div>
    </form>
  );
}

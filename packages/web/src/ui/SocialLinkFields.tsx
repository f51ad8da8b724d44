import { SOCIAL_LABELS, SOCIAL_NETWORKS } from "@easel/common";
import type { FieldErrors, UseFormRegister } from "react-hook-form";
import { TextField } from "./Field.tsx";

type WithSocial = { social: Record<(typeof SOCIAL_NETWORKS)[number], string> };

/** The social-link fields of a form (profiles and collections): one http(s) URL per network. */
export function SocialLinkFields<T extends WithSocial>({
  register,
  errors,
  headingId,
}: {
  register: UseFormRegister<T>;
  errors: FieldErrors<T>;
  headingId: string;
}) {
  const socialErrors = (errors as FieldErrors<WithSocial>).social;
  const registerSocial = register as unknown as UseFormRegister<WithSocial>;
  return (
    <section className="grid gap-5 sm:grid-cols-2" aria-labelledby={headingId}>
      <h2 id={headingId} className="text-lg font-semibold sm:col-span-2">
        Social links
      </h2>
      {SOCIAL_NETWORKS.map((network) => (
        <TextField
          key={network}
          label={SOCIAL_LABELS[network]}
          type="url"
          placeholder="https://"
          error={socialErrors?.[network]?.message}
          {...registerSocial(`social.${network}`)}
        />
      ))}
    </section>
  );
}

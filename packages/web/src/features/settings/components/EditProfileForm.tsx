import {
  MESSAGES,
  mediaUrl,
  PROFILE_BIO_MAX,
  type ProfileUser,
  profileUpdateSchema,
  SOCIAL_NETWORKS,
} from "@easel/common";
import { zodResolver } from "@hookform/resolvers/zod";
import { type Resolver, useForm } from "react-hook-form";
import { useNavigate } from "react-router";
import { toast } from "sonner";
import type { z } from "zod";
import { errorMessage } from "../../../api/client.ts";
import { Avatar } from "../../../ui/Avatar.tsx";
import { Button } from "../../../ui/Button.tsx";
import { applyServerErrors, TextAreaField, TextField } from "../../../ui/Field.tsx";
import { ImagePicker } from "../../../ui/ImagePicker.tsx";
import { SocialLinkFields } from "../../../ui/SocialLinkFields.tsx";
import { useResendEmailConfirmation, useUpdateProfile } from "../../profile/api/profile.ts";
import { ProfileBanner } from "../../profile/components/ProfileBanner.tsx";

export type ProfileFormValues = {
  name: string;
  username: string;
  bio: string;
  email: string;
  ens: string;
  social: Record<(typeof SOCIAL_NETWORKS)[number], string>;
  avatar: string;
  banner: string;
};
type ProfileOutput = z.output<typeof profileUpdateSchema>;

export function toFormValues(user: ProfileUser): ProfileFormValues {
  return {
    name: user.name ?? "",
    username: user.username ?? "",
    bio: user.bio ?? "",
    email: user.email ?? "",
    ens: user.ens ?? "",
    social: Object.fromEntries(
      SOCIAL_NETWORKS.map((n) => [n, user.social[n] ?? ""]),
    ) as ProfileFormValues["social"],
    avatar: user.avatar ?? "",
    banner: user.banner ?? "",
  };
}

const FIELD_NAMES = ["name", "username", "bio", "email", "ens", "social", "avatar", "banner"] as const;

/**
 * The edit form of the profile settings, validated with the shared schema (the server's messages).
 * The ENS field shows only where the chain has ENS (`ensAvailable`): the server checks the name there.
 */
export function EditProfileForm({ user, ensAvailable }: { user: ProfileUser; ensAvailable: boolean }) {
  const navigate = useNavigate();
  const updateProfile = useUpdateProfile();
  const form = useForm<ProfileFormValues, unknown, ProfileOutput>({
    resolver: zodResolver(profileUpdateSchema) as unknown as Resolver<
      ProfileFormValues,
      unknown,
      ProfileOutput
    >,
    defaultValues: toFormValues(user),
    mode: "onTouched",
  });
  const {
    register,
    handleSubmit,
    setError,
    setValue,
    watch,
    formState: { errors, isSubmitting },
  } = form;
  const bio = watch("bio") ?? "";
  const avatar = watch("avatar");
  const banner = watch("banner");

  const onSubmit = handleSubmit(async (values) => {
    try {
      const result = await updateProfile.mutateAsync(values);
      toast.success(result.message || MESSAGES.profileUpdated);
      navigate("/profile");
    } catch (error) {
      if (applyServerErrors(error, setError, FIELD_NAMES)) {
        toast.error(errorMessage(error));
        return;
      }
      toast.error(errorMessage(error));
    }
  });

  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-8" aria-label="Edit Profile">
      <section className="flex flex-col gap-4" aria-labelledby="images-title">
        <h2 id="images-title" className="text-lg font-semibold">
          Images
        </h2>
        <ImagePicker
          kind="banner"
          error={errors.banner?.message}
          preview={<ProfileBanner src={mediaUrl(banner)} />}
          onUploaded={(path) => setValue("banner", path, { shouldDirty: true })}
        />
        <ImagePicker
          kind="avatar"
          error={errors.avatar?.message}
          preview={<Avatar address={user.address} src={mediaUrl(avatar)} className="size-24" />}
          onUploaded={(path) => setValue("avatar", path, { shouldDirty: true })}
        />
      </section>

      <section className="grid gap-5 sm:grid-cols-2" aria-label="About you">
        <TextField
          label="Display name"
          autoComplete="name"
          error={errors.name?.message}
          {...register("name")}
        />
        <TextField
          label="Username"
          autoComplete="username"
          error={errors.username?.message}
          {...register("username")}
        />
        <TextAreaField
          label="Bio"
          className="sm:col-span-2"
          error={errors.bio?.message}
          hint={`${bio.length} / ${PROFILE_BIO_MAX}`}
          {...register("bio")}
        />
        <TextField
          label="Email"
          type="email"
          autoComplete="email"
          error={errors.email?.message}
          hint={<EmailStatus user={user} />}
          {...register("email")}
        />
        {ensAvailable ? (
          <TextField
            label="ENS"
            placeholder="name.eth"
            error={errors.ens?.message}
            hint="Your wallet's primary ENS name; it is checked on chain."
            {...register("ens")}
          />
        ) : null}
      </section>

      <SocialLinkFields register={register} errors={errors} headingId="social-title" />

      <div>
        <Button type="submit" loading={isSubmitting} loadingText="Saving">
          Save changes
        </Button>
      </div>
    </form>
  );
}

/** Whether the saved email is confirmed; notification mail goes only to a confirmed address. */
function EmailStatus({ user }: { user: ProfileUser }) {
  const resend = useResendEmailConfirmation();
  if (!user.email)
    return "Optional. Only you can see it; used for the notifications you choose to receive by email.";
  if (user.emailVerified)
    return "Confirmed. Only you can see it; used for the notifications you choose by email.";
  return (
    <span className="flex flex-wrap items-center gap-x-2">
      <span>
        Not confirmed yet: open the link we mailed to {user.email} to receive notifications by email.
      </span>
      <button
        type="button"
        className="font-semibold text-accent-700 underline disabled:opacity-60 dark:text-accent-400"
        disabled={resend.isPending}
        onClick={() =>
          resend.mutate(undefined, {
            onSuccess: (result) => toast.success(result.message),
            onError: (error) => toast.error(errorMessage(error)),
          })
        }
      >
        {resend.isPending ? "Sending…" : "Send the link again"}
      </button>
    </span>
  );
}

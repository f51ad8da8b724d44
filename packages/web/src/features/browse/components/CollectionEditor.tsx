import {
  BROWSE_MESSAGES,
  COLLECTION_DESCRIPTION_MAX,
  collectionEditSchema,
  mediaUrl,
  SOCIAL_NETWORKS,
} from "@easel/common";
import { useForm } from "react-hook-form";
import { Link, useNavigate } from "react-router";
import { toast } from "sonner";
import { ApiError, errorMessage } from "../../../api/client.ts";
import { usePageTitle } from "../../../lib/usePageTitle.ts";
import { Button, buttonClass } from "../../../ui/Button.tsx";
import { applyServerErrors } from "../../../ui/Field.tsx";
import { ImagePicker } from "../../../ui/ImagePicker.tsx";
import { Loading } from "../../../ui/Loading.tsx";
import { SocialLinkFields } from "../../../ui/SocialLinkFields.tsx";
import { ProfileBanner } from "../../profile/components/ProfileBanner.tsx";
import { useCollection, useEditCollection } from "../api/browse.ts";
import { fromMarkup, toMarkup } from "../lib/richTextMarkup.ts";
import { DescriptionEditor } from "./DescriptionEditor.tsx";

type Values = {
  description: string;
  logo: string;
  banner: string;
  social: Record<(typeof SOCIAL_NETWORKS)[number], string>;
};

/**
 * Edit Collection (owner only): logo and banner through the crop dialog, the description as rich text, social
 * links. The header is hidden on this page, so it carries its own way back. Saving returns to the collection.
 */
export function CollectionEditor({ name }: { name: string }) {
  const query = useCollection(name, "none", undefined);
  const first = query.data?.pages[0];
  usePageTitle(first ? `Edit ${first.collection.name}` : "Edit Collection");
  if (query.isPending) return <Loading label="Loading collection" size="page" />;
  if (query.isError || !first) {
    const notFound = query.error instanceof ApiError && query.error.status === 404;
    return (
      <Notice title={notFound ? "Collection not found" : "This collection could not be loaded"}>
        {notFound ? null : errorMessage(query.error)}
      </Notice>
    );
  }
  if (!first.isOwner) {
    return (
      <Notice title="Edit Collection" back={`/collection/${encodeURIComponent(first.collection.slug)}`}>
        {BROWSE_MESSAGES.notYourCollection}
      </Notice>
    );
  }
  return <EditForm collection={first.collection} />;
}

function Notice({
  title,
  children,
  back = "/ExploreCollection",
}: {
  title: string;
  children: React.ReactNode;
  back?: string;
}) {
  return (
    <div className="mx-auto max-w-3xl px-4 py-24 text-center">
      <h1 className="text-2xl font-bold">{title}</h1>
      {children ? <p className="mt-3 text-neutral-600 dark:text-neutral-400">{children}</p> : null}
      <Link to={back} className={buttonClass("primary", "mt-6")}>
        Go back
      </Link>
    </div>
  );
}

/** What PUT /api/collection/edit takes, from the form. */
const toBody = (id: string, values: Values) => ({
  id,
  description: fromMarkup(values.description),
  logo: values.logo || null,
  banner: values.banner || null,
  social: Object.fromEntries(SOCIAL_NETWORKS.map((n) => [n, values.social[n].trim() || null])),
});

type Collection = NonNullable<ReturnType<typeof useCollection>["data"]>["pages"][number]["collection"];

function EditForm({ collection }: { collection: Collection }) {
  const navigate = useNavigate();
  const edit = useEditCollection();
  const page = `/collection/${encodeURIComponent(collection.slug)}`;
  const form = useForm<Values>({
    // The shared schema is the rule (the server's own words), checked on the document the form will send.
    resolver: (values) => {
      const checked = collectionEditSchema.safeParse(toBody(collection._id, values));
      if (checked.success) return { values, errors: {} };
      const errors: Record<string, unknown> = {};
      for (const issue of checked.error.issues) {
        const [field, key] = issue.path as string[];
        const error = { type: "schema", message: issue.message };
        if (field === "social" && key) errors.social = { ...(errors.social as object), [key]: error };
        else if (field) errors[field] = error;
      }
      return { values: {}, errors: errors as never };
    },
    defaultValues: {
      description: toMarkup(collection.description),
      logo: collection.logo ?? "",
      banner: collection.banner ?? "",
      social: Object.fromEntries(
        SOCIAL_NETWORKS.map((n) => [n, collection.social[n] ?? ""]),
      ) as Values["social"],
    },
  });
  const {
    register,
    handleSubmit,
    setError,
    setValue,
    watch,
    formState: { errors, isSubmitting },
  } = form;

  const onSubmit = handleSubmit(async (values) => {
    const body = {
      id: collection._id,
      description: fromMarkup(values.description),
      logo: values.logo || null,
      banner: values.banner || null,
      social: Object.fromEntries(SOCIAL_NETWORKS.map((n) => [n, values.social[n].trim() || null])),
    };
    // The shared schema first (the server's own rule and words), then the server.
    const checked = collectionEditSchema.safeParse(body);
    if (!checked.success) {
      for (const issue of checked.error.issues) {
        const [field, key] = issue.path as string[];
        const path =
          field === "social" && key
            ? (`social.${key}` as const)
            : field === "description"
              ? "description"
              : null;
        if (path) setError(path as never, { type: "schema", message: issue.message });
      }
      return;
    }
    try {
      const result = await edit.mutateAsync(body);
      toast.success(result.data.message);
      navigate(page);
    } catch (error) {
      applyServerErrors(error, setError, ["description", "logo", "banner", "social"]);
      toast.error(errorMessage(error));
    }
  });

  const side = [
    { label: "Edit Profile", to: `/profile/edit/${collection.owner.username ?? collection.owner.address}` },
    { label: "Add New Item", to: "/mint" },
    { label: "Statistics", to: `${page}?view=statistics` },
    { label: "Activities", to: `${page}?view=activity` },
  ];

  return (
    <div className="mx-auto grid w-full max-w-6xl gap-8 px-4 py-8 md:grid-cols-[14rem_1fr]">
      <nav aria-label="Collection" className="flex flex-col gap-2">
        <Link to={page} className="mb-2 text-sm font-semibold hover:underline">
          ← Back to {collection.name}
        </Link>
        {side.map((item) => (
          <Link key={item.label} to={item.to} className={buttonClass("secondary", "justify-start")}>
            {item.label}
          </Link>
        ))}
      </nav>
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-8" aria-label="Edit Collection">
        <h1 className="text-3xl font-bold tracking-tight">Edit Collection</h1>
        <section className="flex flex-col gap-4" aria-label="Images">
          <ImagePicker
            kind="banner"
            error={errors.banner?.message}
            preview={<ProfileBanner src={mediaUrl(watch("banner"))} />}
            onUploaded={(path) => setValue("banner", path, { shouldDirty: true })}
          />
          <ImagePicker
            kind="logo"
            error={errors.logo?.message}
            preview={
              <div className="size-24 overflow-hidden rounded-2xl bg-neutral-200 dark:bg-neutral-800">
                {watch("logo") ? (
                  <img
                    src={mediaUrl(watch("logo")) ?? undefined}
                    alt="Collection logo"
                    className="size-full object-cover"
                  />
                ) : null}
              </div>
            }
            onUploaded={(path) => setValue("logo", path, { shouldDirty: true })}
          />
        </section>
        <DescriptionEditor
          max={COLLECTION_DESCRIPTION_MAX}
          value={watch("description")}
          error={errors.description?.message}
          onChange={(text) => setValue("description", text, { shouldDirty: true })}
        />
        <SocialLinkFields register={register} errors={errors} headingId="collection-social" />
        <div className="flex gap-3">
          <Button type="submit" loading={isSubmitting} loadingText="Saving">
            Save changes
          </Button>
          <Link to={page} className={buttonClass("secondary")}>
            Cancel
          </Link>
        </div>
      </form>
    </div>
  );
}

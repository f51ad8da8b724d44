import {
  BROWSE_MESSAGES,
  COLLECTION_DESCRIPTION_MAX,
  collectionEditSchema,
  richTextPlain,
  SOCIAL_NETWORKS,
} from "@easel/common";
import { useId, useRef, useState } from "react";
import { useForm } from "react-hook-form";
import { Link, useNavigate } from "react-router";
import { toast } from "sonner";
import { ApiError, errorMessage } from "../../../api/client.ts";
import { mediaUrl } from "../../../lib/media.ts";
import { usePageTitle } from "../../../lib/usePageTitle.ts";
import { Button, buttonClass } from "../../../ui/Button.tsx";
import { applyServerErrors, inputClass } from "../../../ui/Field.tsx";
import { ImagePicker } from "../../../ui/ImagePicker.tsx";
import { Loading } from "../../../ui/Loading.tsx";
import { SocialLinkFields } from "../../../ui/SocialLinkFields.tsx";
import { ProfileBanner } from "../../profile/components/ProfileBanner.tsx";
import { useCollection, useEditCollection } from "../api/browse.ts";
import { fromMarkup, toMarkup } from "../lib/richTextMarkup.ts";
import { RichText } from "./RichText.tsx";

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

/** The description as rich text: Bold, Italic and Link wrap the selection; the preview shows the result. */
function DescriptionEditor({
  value,
  error,
  onChange,
}: {
  value: string;
  error: string | undefined;
  onChange: (text: string) => void;
}) {
  const id = useId();
  const area = useRef<HTMLTextAreaElement>(null);
  const [preview, setPreview] = useState(false);
  const doc = fromMarkup(value);
  const length = richTextPlain(doc).length;
  const wrap = (before: string, after: string, fallback: string) => {
    const element = area.current;
    if (!element) return;
    const { selectionStart: start, selectionEnd: end } = element;
    const selected = value.slice(start, end) || fallback;
    onChange(`${value.slice(0, start)}${before}${selected}${after}${value.slice(end)}`);
    requestAnimationFrame(() => {
      element.focus();
      element.setSelectionRange(start + before.length, start + before.length + selected.length);
    });
  };
  return (
    <section className="flex flex-col gap-2">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <label htmlFor={id} className="text-sm font-semibold">
          Description
        </label>
        <div className="flex gap-1" role="toolbar" aria-label="Formatting">
          <Button variant="ghost" className="px-2 py-1 font-bold" onClick={() => wrap("**", "**", "bold")}>
            Bold
          </Button>
          <Button variant="ghost" className="px-2 py-1 italic" onClick={() => wrap("*", "*", "italic")}>
            Italic
          </Button>
          <Button
            variant="ghost"
            className="px-2 py-1 underline"
            onClick={() => wrap("[", "](https://)", "link text")}
          >
            Link
          </Button>
          <Button
            variant="ghost"
            className="px-2 py-1"
            aria-pressed={preview}
            onClick={() => setPreview((p) => !p)}
          >
            Preview
          </Button>
        </div>
      </div>
      {preview ? (
        <div className="min-h-32 rounded-lg border border-neutral-300 p-3 text-sm dark:border-neutral-700">
          {doc ? <RichText doc={doc} /> : <p className="text-neutral-500">Nothing to preview yet.</p>}
        </div>
      ) : (
        <textarea
          ref={area}
          id={id}
          rows={6}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-hint${error ? ` ${id}-error` : ""}`}
          className={inputClass}
        />
      )}
      <p id={`${id}-hint`} className="text-xs text-neutral-600 dark:text-neutral-400">
        **bold**, *italic*, [words](https://link) · {length} / {COLLECTION_DESCRIPTION_MAX}
      </p>
      {error ? (
        <p id={`${id}-error`} className="text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      ) : null}
    </section>
  );
}

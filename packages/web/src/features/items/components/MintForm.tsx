import {
  cidToHex,
  LAZY_PRICE_MIN_ETH,
  MINT_DESCRIPTION_MAX,
  MINT_MESSAGES,
  MINT_TAGS_MAX,
  ROYALTY_SUGGESTIONS,
  richTextPlain,
  shortAddress,
} from "@easel/common";
import { easelCollectionAbi } from "@easel/contracts/abis";
import { zodResolver } from "@hookform/resolvers/zod";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useId, useRef, useState } from "react";
import { Controller, type FieldErrors, useForm } from "react-hook-form";
import { Link } from "react-router";
import { toast } from "sonner";
import { parseEventLogs } from "viem";
import { useAppConfig } from "../../../api/appConfig.tsx";
import { ApiError, errorMessage } from "../../../api/client.ts";
import { useSession } from "../../../auth/session.ts";
import { Avatar } from "../../../ui/Avatar.tsx";
import { Button } from "../../../ui/Button.tsx";
import { applyServerErrors, FieldShell, inputClass, TextField } from "../../../ui/Field.tsx";
import { UsdValue } from "../../../ui/UsdValue.tsx";
import { collectionContract } from "../../../web3/contracts.ts";
import { writeStep } from "../../../web3/tx/steps.ts";
import { useTransactionFlow } from "../../../web3/tx/useTransactionFlow.ts";
import { browseKeys, useCategories } from "../../browse/api/browse.ts";
import { CategorySelect } from "../../browse/components/CategorySelect.tsx";
import { CreateCollectionDialog } from "../../browse/components/CreateCollectionDialog.tsx";
import { DescriptionEditor } from "../../browse/components/DescriptionEditor.tsx";
import { fromMarkup } from "../../browse/lib/richTextMarkup.ts";
import { itemKeys, uploadMint, useMintCollections } from "../api/items.ts";
import { type MintFormInput, type MintFormValues, mintFormSchema, priceWei } from "../lib/mintForm.ts";
import { capturePoster, isPdf, isVideo } from "../lib/poster.ts";
import { MintCardPreview } from "./MintCardPreview.tsx";
import { MINT_STEPS, MintDialog, type MintProgress } from "./MintDialog.tsx";
import { MintDropzone, type Picked } from "./MintDropzone.tsx";
import { SplitDialog, type SplitPerson } from "./SplitDialog.tsx";

const EMPTY: MintFormInput = {
  type: "",
  file: undefined as never,
  collection: "",
  lazy: false,
  name: "",
  royalty: 10,
  description: "",
  tags: [],
  price: "",
  rights: false as never,
  terms: false as never,
};

/** The mint form: the artwork, its type and collection, its details, and the card it will make. */
export function MintForm() {
  const { session, profile } = useSession();
  const { chainId } = useAppConfig();
  const me = (session?.address ?? "").toLowerCase();
  const categories = useCategories();
  const flow = useTransactionFlow();
  const queryClient = useQueryClient();
  const [progress, setProgress] = useState<MintProgress | null>(null);
  const [split, setSplit] = useState<SplitPerson[]>([]);
  const [splitOn, setSplitOn] = useState(false);
  const [splitOpen, setSplitOpen] = useState(false);
  const [createOpen, setCreateOpen] = useState(false);
  const [tagText, setTagText] = useState("");
  /** A collection just created from here, selected once the list holds it. */
  const [createdCollection, setCreatedCollection] = useState<string | null>(null);
  const [picked, setPicked] = useState<Picked | null>(null);
  /** The poster being drawn for the picked video or PDF (sent with it). */
  const poster = useRef<Promise<Blob | null> | null>(null);
  const form = useForm<MintFormInput, unknown, MintFormValues>({
    resolver: zodResolver(mintFormSchema),
    defaultValues: EMPTY,
  });
  const {
    register,
    control,
    handleSubmit,
    setValue,
    setError,
    clearErrors,
    watch,
    reset,
    setFocus,
    trigger,
    formState: { errors, isSubmitting, submitCount },
  } = form;
  const type = watch("type");
  const typeId = type ? Number(type) : null;
  const collections = useMintCollections(typeId);
  const collectionAddress = watch("collection");
  const chosen = collections.data?.find((c) => c.contract_address === collectionAddress) ?? null;
  const lazy = chosen?.type === "lazy";
  const tags = watch("tags") ?? [];
  const description = watch("description");

  useEffect(() => setValue("lazy", lazy), [lazy, setValue]);
  // A collection holds one artwork type: changing the type empties the choice.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new type resets the collection
  useEffect(() => setValue("collection", ""), [type, setValue]);
  // A type chosen, the file may be picked: the message asking for the type first goes.
  useEffect(() => {
    if (type && form.getFieldState("file").error?.message === MINT_MESSAGES.selectTypeFirst)
      clearErrors("file");
  }, [type, form, clearErrors]);

  useEffect(() => {
    if (!createdCollection || !collections.data?.some((c) => c.contract_address === createdCollection))
      return;
    setValue("collection", createdCollection, { shouldValidate: true });
    setCreatedCollection(null);
  }, [createdCollection, collections.data, setValue]);

  // The picked file's blob URLs live until another file replaces them or the page closes.
  const pickedUrl = picked?.url;
  const posterUrl = picked?.posterUrl;
  useEffect(() => () => (pickedUrl ? URL.revokeObjectURL(pickedUrl) : undefined), [pickedUrl]);
  useEffect(() => () => (posterUrl ? URL.revokeObjectURL(posterUrl) : undefined), [posterUrl]);

  /** Shows the artwork at once, and draws a video's or PDF's poster for its card. */
  const pick = (file: File) => {
    clearErrors("file");
    const drawing = isVideo(file) || isPdf(file);
    const job = drawing ? capturePoster(file) : null;
    poster.current = job;
    setPicked({ file, url: URL.createObjectURL(file), posterUrl: null, drawing });
    void job?.then((blob) => {
      if (poster.current !== job) return;
      setPicked((p) =>
        p?.file === file ? { ...p, posterUrl: blob ? URL.createObjectURL(blob) : null, drawing: false } : p,
      );
    });
  };

  const addTag = () => {
    const tag = tagText.trim();
    if (!tag) return;
    if (tags.length >= MINT_TAGS_MAX) {
      setError("tags", { message: MINT_MESSAGES.tagsMax });
      return;
    }
    if (!tags.includes(tag)) setValue("tags", [...tags, tag], { shouldValidate: true });
    setTagText("");
  };

  const onSubmit = handleSubmit(async (values) => {
    if (!chosen) return;
    const body = new FormData();
    body.append("category_web2_id", values.type);
    body.append("collection", chosen.contract_address);
    body.append("name", values.name);
    body.append("royalty", String(values.royalty));
    const doc = fromMarkup(values.description);
    body.append("description", richTextPlain(doc).trim());
    if (doc) body.append("description_ui", JSON.stringify(doc));
    body.append("tags", JSON.stringify(values.tags));
    const people = split.length > 1 ? split.map((p) => ({ address: p.address, share: p.share })) : [];
    body.append("_collaborators", JSON.stringify(people));
    if (values.lazy) body.append("price", String(priceWei(values.price) ?? 0n));
    body.append("file", values.file, values.file.name);
    // A video's or PDF's poster goes with it (without one, the card shows the type's tile).
    const still = poster.current ? await poster.current : null;
    if (still) body.append("poster", still, still.type === "image/webp" ? "poster.webp" : "poster.png");

    const start: MintProgress = {
      lazy: values.lazy,
      percent: 0,
      uploaded: false,
      write: null,
      path: null,
    };
    setProgress(start);
    let uploaded: Awaited<ReturnType<typeof uploadMint>>;
    try {
      uploaded = await uploadMint(values.lazy, body, (percent) =>
        setProgress((p) => (p ? { ...p, percent: Math.min(percent, 99) } : p)),
      );
    } catch (error) {
      setProgress(null);
      applyServerErrors(error, setError, [
        "name",
        "royalty",
        "description",
        "tags",
        "price",
        "collection",
        "file",
      ]);
      // The poster belongs to the file: its refusal shows there.
      const posterError = error instanceof ApiError ? error.fields?.poster : undefined;
      if (posterError) setError("file", { type: "server", message: posterError });
      toast.error(errorMessage(error));
      return;
    }
    if (values.lazy) {
      setProgress({ ...start, percent: 100, uploaded: true, path: uploaded.path });
      toast.success(MINT_MESSAGES.lazyCreated);
      void queryClient.invalidateQueries({ queryKey: browseKeys.all });
      return;
    }
    setProgress({ ...start, percent: 100, uploaded: true });
    let tokenId: bigint | null = null;
    const ok = await flow.run([
      writeStep(
        MINT_STEPS.confirm,
        {
          ...collectionContract(chosen.contract_address as `0x${string}`, chainId),
          functionName: "mintNFT",
          args: [
            values.royalty * 100,
            cidToHex(uploaded.uri_cid),
            uploaded.collaborators.map((c) => ({ account: c.address as `0x${string}`, share: c.share })),
          ],
        },
        (receipt) => {
          const [minted] = parseEventLogs({
            abi: easelCollectionAbi,
            logs: receipt.logs,
            eventName: "Minted",
          });
          tokenId = minted?.args.tokenId ?? null;
        },
      ),
    ]);
    if (!ok || tokenId === null) {
      // A wallet error returns to the form (the toast says why); the upload stays unminted and blocks nothing.
      setProgress(null);
      flow.reset();
      return;
    }
    const path =
      chosen.type === "default"
        ? `/${me}/${tokenId}`
        : `/${me}/${encodeURIComponent(chosen.slug)}/${tokenId}`;
    setProgress((p) => (p ? { ...p, path } : p));
    toast.success(MINT_MESSAGES.minted);
    void queryClient.invalidateQueries({ queryKey: browseKeys.all });
    void queryClient.invalidateQueries({ queryKey: itemKeys.all });
  });

  const closeDialog = () => {
    if (progress?.path) {
      reset(EMPTY);
      setPicked(null);
      poster.current = null;
      setSplit([]);
      setSplitOn(false);
      setTagText("");
    }
    flow.reset();
    setProgress(null);
  };

  const royaltyId = useId();
  const splitPeople = split.length > 1 ? split : [];

  const categoryTitle = categories.data?.find((c) => String(c._id) === type)?.title ?? null;
  const still =
    picked && !isVideo(picked.file) && !isPdf(picked.file) ? picked.url : (picked?.posterUrl ?? null);
  const problems = submitCount > 0 ? fieldsToFix(errors) : [];

  return (
    <section className="mx-auto grid max-w-6xl gap-10 px-4 py-10 lg:grid-cols-[minmax(0,1fr)_340px]">
      <h1 className="text-3xl font-bold tracking-tight lg:col-span-2">Create NFT</h1>
      <form onSubmit={onSubmit} noValidate className="flex min-w-0 flex-col gap-5">
        <CategorySelect
          label="Type"
          placeholder="Select a type"
          error={errors.type?.message}
          {...register("type")}
        />

        <Controller
          control={control}
          name="file"
          render={({ field }) => (
            <MintDropzone
              picked={picked}
              enabled={!!type}
              error={errors.file?.message}
              inputRef={field.ref}
              onBlur={field.onBlur}
              onPick={(picked) => {
                field.onChange(picked);
                // Its size is checked at once.
                void trigger("file");
                pick(picked);
              }}
              onBlocked={() => {
                setError("file", { message: MINT_MESSAGES.selectTypeFirst });
                toast.warning(MINT_MESSAGES.selectTypeFirst);
              }}
            />
          )}
        />

        <FieldShell
          label="Collection"
          hint={chosen ? COLLECTION_HINTS[chosen.type] : undefined}
          error={errors.collection?.message}
        >
          {({ id, describedBy, invalid }) => (
            <div className="flex flex-wrap gap-2">
              <select
                id={id}
                aria-describedby={describedBy}
                aria-invalid={invalid || undefined}
                disabled={!type}
                className={`${inputClass} flex-1`}
                {...register("collection")}
              >
                <option value="">
                  {!type
                    ? "Select a type first"
                    : collections.isPending
                      ? "Loading collections..."
                      : "Select a collection"}
                </option>
                {collections.data?.map((c) => (
                  <option key={c.contract_address} value={c.contract_address} disabled={c.remaining === 0}>
                    {c.type === "default"
                      ? `${c.name} (shared)`
                      : c.type === "lazy"
                        ? `${c.name} (lazy)`
                        : c.name}
                    {c.remaining === 0 ? " — full" : ""}
                  </option>
                ))}
              </select>
              <Button variant="secondary" onClick={() => setCreateOpen(true)}>
                Create new collection
              </Button>
            </div>
          )}
        </FieldShell>

        <TextField label="Name" autoComplete="off" error={errors.name?.message} {...register("name")} />

        <div className="flex flex-col gap-1.5">
          <label htmlFor={royaltyId} className="text-sm font-semibold">
            Royalty (%)
          </label>
          <div className="flex flex-wrap items-center gap-2">
            <input
              id={royaltyId}
              type="number"
              min={0}
              max={20}
              step={1}
              inputMode="numeric"
              aria-invalid={errors.royalty ? true : undefined}
              className={`${inputClass} w-28`}
              {...register("royalty")}
            />
            {ROYALTY_SUGGESTIONS.map((value) => (
              <Button
                key={value}
                variant="secondary"
                className="px-3 py-1.5"
                onClick={() => setValue("royalty", value, { shouldValidate: true })}
              >
                {value}%
              </Button>
            ))}
          </div>
          <p className="text-xs text-neutral-600 dark:text-neutral-400">
            Paid to you on every resale, 0 to 20%.
          </p>
          {errors.royalty ? (
            <p className="text-sm text-red-700 dark:text-red-400">{errors.royalty.message}</p>
          ) : null}
        </div>

        <DescriptionEditor
          value={description}
          max={MINT_DESCRIPTION_MAX}
          error={errors.description?.message}
          onChange={(text) => setValue("description", text, { shouldValidate: !!errors.description })}
          counter={(length, max) =>
            length > max ? (
              <span className="text-red-700 dark:text-red-400">{MINT_MESSAGES.descriptionOver}</span>
            ) : (
              `${length} / ${max} · ${MINT_MESSAGES.descriptionMax}`
            )
          }
        />

        <FieldShell
          label="Tags"
          hint={`Up to ${MINT_TAGS_MAX}; press Enter to add one.`}
          error={errors.tags?.message}
        >
          {({ id, describedBy, invalid }) => (
            <div className="flex flex-col gap-2">
              <div className="flex gap-2">
                <input
                  id={id}
                  value={tagText}
                  aria-describedby={describedBy}
                  aria-invalid={invalid || undefined}
                  onChange={(event) => setTagText(event.target.value)}
                  onKeyDown={(event) => {
                    if (event.key !== "Enter") return;
                    event.preventDefault();
                    addTag();
                  }}
                  className={inputClass}
                />
                <Button variant="secondary" onClick={addTag}>
                  Add
                </Button>
              </div>
              {tags.length ? (
                <ul className="flex flex-wrap gap-2" aria-label="Tags">
                  {tags.map((tag) => (
                    <li
                      key={tag}
                      className="flex items-center gap-1 rounded-full bg-neutral-100 px-3 py-1 text-sm dark:bg-neutral-800"
                    >
                      {tag}
                      <button
                        type="button"
                        aria-label={`Remove tag ${tag}`}
                        className="text-neutral-500 hover:text-neutral-900 dark:hover:text-neutral-100"
                        onClick={() =>
                          setValue(
                            "tags",
                            tags.filter((t) => t !== tag),
                            { shouldValidate: true },
                          )
                        }
                      >
                        ✕
                      </button>
                    </li>
                  ))}
                </ul>
              ) : null}
            </div>
          )}
        </FieldShell>

        {lazy ? (
          <div className="flex flex-col gap-1">
            <TextField
              label="List price (ETH)"
              inputMode="decimal"
              autoComplete="off"
              hint={`A buyer mints the item at this price. At least ${LAZY_PRICE_MIN_ETH} ETH.`}
              error={errors.price?.message}
              {...register("price")}
            />
            <UsdValue wei={priceWei(watch("price") ?? "")} className="text-sm" />
          </div>
        ) : null}

        <div className="flex flex-col gap-2">
          <label className="flex items-center gap-3 text-sm font-semibold">
            <input
              type="checkbox"
              role="switch"
              checked={splitOn}
              aria-checked={splitOn}
              className="accent-accent-600"
              onChange={(event) => {
                if (event.target.checked) {
                  setSplitOn(true);
                  setSplitOpen(true);
                } else {
                  setSplitOn(false);
                  setSplit([]);
                }
              }}
            />
            Split earnings with collaborators
          </label>
          {splitPeople.length ? (
            <div className="flex flex-wrap items-center gap-3 rounded-lg border border-neutral-200 p-3 dark:border-neutral-800">
              <ul className="flex flex-1 flex-wrap gap-3" aria-label="Split">
                {splitPeople.map((person) => (
                  <li key={person.address} className="flex items-center gap-2 text-sm">
                    <Avatar address={person.address} className="size-6" />
                    {person.address === me ? "You" : person.username || shortAddress(person.address)}
                    <span className="font-semibold tabular-nums">{person.share}%</span>
                  </li>
                ))}
              </ul>
              <Button variant="ghost" onClick={() => setSplitOpen(true)}>
                Edit split
              </Button>
            </div>
          ) : null}
        </div>

        <Checkbox
          label="I own the rights to this artwork and may sell it."
          error={errors.rights?.message}
          {...register("rights")}
        />
        <Checkbox
          label={
            <>
              I agree to Easel's{" "}
              <Link to="/TermsOfServices" target="_blank" className="underline">
                Terms of Service
              </Link>
            </>
          }
          error={errors.terms?.message}
          {...register("terms")}
        />

        {problems.length ? (
          <div
            role="alert"
            className="rounded-lg border border-red-300 bg-red-50 p-3 text-sm text-red-800 dark:border-red-900 dark:bg-red-950/40 dark:text-red-200"
          >
            <p className="font-semibold">
              {problems.length === 1
                ? "One field needs your attention; its message says what to fix:"
                : `${problems.length} fields need your attention; each message says what to fix:`}
            </p>
            <ul className="mt-1 flex flex-wrap gap-x-3 gap-y-1">
              {problems.map(({ name, label }) => (
                <li key={name}>
                  <button
                    type="button"
                    className="text-left underline underline-offset-2"
                    onClick={(event) => {
                      // The control its label names (the description and tags are not registered fields).
                      const labelled = [...(event.currentTarget.form?.querySelectorAll("label") ?? [])].find(
                        (l) => l.textContent === label,
                      )?.control;
                      if (labelled) labelled.focus();
                      else setFocus(name);
                    }}
                  >
                    {label}
                  </button>
                </li>
              ))}
            </ul>
          </div>
        ) : null}

        <Button type="submit" loading={isSubmitting} loadingText="Creating...">
          {lazy ? "Create lazy NFT" : "Create NFT"}
        </Button>
      </form>

      <aside className="lg:sticky lg:top-24 lg:self-start">
        <MintCardPreview
          name={watch("name") ?? ""}
          category={chosen?.type === "default" ? null : categoryTitle}
          picture={still}
          creator={{
            address: me,
            username: profile?.username ?? null,
            name: profile?.name ?? null,
            avatar: profile?.avatar ?? null,
          }}
          collection={
            chosen ? { address: chosen.contract_address, name: chosen.name, kind: chosen.type } : null
          }
          royalty={Number(watch("royalty")) || 0}
          priceWei={lazy ? priceWei(watch("price") ?? "") : null}
        />
      </aside>

      <SplitDialog
        open={splitOpen}
        creator={{ address: me, username: profile?.username ?? null, avatar: profile?.avatar ?? null }}
        initial={split}
        onCancel={() => {
          setSplitOpen(false);
          if (split.length <= 1) setSplitOn(false);
        }}
        onSave={(people) => {
          setSplitOpen(false);
          setSplit(people);
          if (people.length <= 1) setSplitOn(false);
        }}
      />
      <CreateCollectionDialog
        open={createOpen}
        onOpenChange={setCreateOpen}
        doneLabel="Continue"
        onCreated={(created) => {
          setCreatedCollection(created.address);
          void queryClient.invalidateQueries({ queryKey: itemKeys.mintCollections(typeId) });
        }}
      />
      <MintDialog
        progress={progress ? { ...progress, write: flow.steps?.[0] ?? null } : null}
        onClose={closeDialog}
      />
    </section>
  );
}

function Checkbox({
  label,
  error,
  ...input
}: React.InputHTMLAttributes<HTMLInputElement> & { label: React.ReactNode; error?: string | undefined }) {
  return (
    <div className="flex flex-col gap-1">
      <label className="flex items-start gap-2 text-sm">
        <input
          type="checkbox"
          className="mt-0.5 accent-accent-600"
          aria-invalid={error ? true : undefined}
          {...input}
        />
        <span>{label}</span>
      </label>
      {error ? <p className="text-sm text-red-700 dark:text-red-400">{error}</p> : null}
    </div>
  );
}

/** What minting into each kind of collection means, under the picker. */
const COLLECTION_HINTS: Record<string, string> = {
  default: "Easel's shared collection: the item is minted now and has no type on its page.",
  standard: "Your collection: the item is minted now, in your own contract.",
  lazy: "Your lazy collection: the item is listed at a price and minted when a buyer pays.",
};

/** The form's fields by name, as their labels read. */
const FIELD_LABELS: Record<keyof MintFormInput, string> = {
  type: "Type",
  file: "Upload file",
  collection: "Collection",
  lazy: "Collection",
  name: "Name",
  royalty: "Royalty (%)",
  description: "Description",
  tags: "Tags",
  price: "List price (ETH)",
  rights: "Rights",
  terms: "Terms of Service",
};

/** The fields to fix, in the form's order (each shows its message under it). */
function fieldsToFix(errors: FieldErrors<MintFormInput>) {
  return (Object.keys(FIELD_LABELS) as (keyof MintFormInput)[]).flatMap((name) =>
    errors[name]?.message ? [{ name, label: FIELD_LABELS[name] }] : [],
  );
}

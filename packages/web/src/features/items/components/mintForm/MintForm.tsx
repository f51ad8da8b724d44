import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useSession } from "../../../../auth/session.ts";
import { Button } from "../../../../ui/Button.tsx";
import { TextField } from "../../../../ui/Field.tsx";
import { useCategories } from "../../../browse/api/browse.ts";
import { CategorySelect } from "../../../browse/components/CategorySelect.tsx";
import { CreateCollectionDialog } from "../../../browse/components/CreateCollectionDialog.tsx";
import { itemKeys } from "../../api/items.ts";
import { priceWei } from "../../lib/mintForm.ts";
import { MintCardPreview } from "../MintCardPreview.tsx";
import { MintDialog } from "../MintDialog.tsx";
import type { SplitPerson } from "../SplitDialog.tsx";
import { Agreements } from "./Agreements.tsx";
import { CollectionField } from "./CollectionField.tsx";
import { DescriptionField } from "./DescriptionField.tsx";
import { FieldsToFix } from "./FieldsToFix.tsx";
import { LazyPriceField } from "./LazyPriceField.tsx";
import { PropertiesField } from "./PropertiesField.tsx";
import { RoyaltyField } from "./RoyaltyField.tsx";
import { SplitField } from "./SplitField.tsx";
import { TagsField } from "./TagsField.tsx";
import { UploadField } from "./UploadField.tsx";
import { EMPTY_MINT_FORM, useMintForm } from "./useMintForm.ts";
import { useMintSubmit } from "./useMintSubmit.ts";
import { usePickedArtwork } from "./usePickedArtwork.ts";

/**
 * The mint form: the artwork, its type and collection, its details, and the card it will make. Its state is
 * `useMintForm`, the picked file `usePickedArtwork`, and "Create NFT" runs `useMintSubmit`: the upload step
 * (`uploadStep.ts`), then the wallet's mint step (`mintStep.ts`). Each section of the form is a file named
 * after its field.
 */
export function MintForm() {
  const { session, profile } = useSession();
  const me = (session?.address ?? "").toLowerCase();
  const categories = useCategories();
  const queryClient = useQueryClient();
  const state = useMintForm();
  const { form, type, typeId, chosen, lazy } = state;
  const artwork = usePickedArtwork();
  const [split, setSplit] = useState<SplitPerson[]>([]);
  const [splitOn, setSplitOn] = useState(false);
  const [createOpen, setCreateOpen] = useState(false);
  const [tagText, setTagText] = useState("");
  const submit = useMintSubmit(state, artwork, split, me);
  const {
    register,
    watch,
    formState: { errors, isSubmitting },
  } = form;

  const startOver = () => {
    form.reset(EMPTY_MINT_FORM);
    artwork.clear();
    setSplit([]);
    setSplitOn(false);
    setTagText("");
  };

  const categoryTitle = categories.data?.find((c) => String(c._id) === type)?.title ?? null;

  return (
    <section className="mx-auto grid max-w-6xl gap-10 px-4 py-10 lg:grid-cols-[minmax(0,1fr)_340px]">
      <h1 className="text-3xl font-bold tracking-tight lg:col-span-2">Create NFT</h1>
      <form onSubmit={submit.onSubmit} noValidate className="flex min-w-0 flex-col gap-5">
        <CategorySelect
          label="Type"
          placeholder="Select a type"
          error={errors.type?.message}
          {...register("type")}
        />
        <UploadField form={form} type={type} artwork={artwork} />
        <CollectionField
          form={form}
          type={type}
          collections={state.collections}
          chosen={chosen}
          onCreate={() => setCreateOpen(true)}
        />
        <TextField label="Name" autoComplete="off" error={errors.name?.message} {...register("name")} />
        <RoyaltyField form={form} />
        <DescriptionField form={form} />
        <TagsField form={form} text={tagText} onTextChange={setTagText} />
        <PropertiesField form={form} />
        {lazy ? <LazyPriceField form={form} /> : null}
        <SplitField
          creator={{ address: me, username: profile?.username ?? null, avatar: profile?.avatar ?? null }}
          split={split}
          onSplitChange={setSplit}
          on={splitOn}
          onToggle={setSplitOn}
        />
        <Agreements form={form} />
        <FieldsToFix form={form} />
        <Button type="submit" loading={isSubmitting} loadingText="Creating...">
          {lazy ? "Create lazy NFT" : "Create NFT"}
        </Button>
      </form>

      <aside className="lg:sticky lg:top-24 lg:self-start">
        <MintCardPreview
          name={watch("name") ?? ""}
          category={chosen?.type === "default" ? null : categoryTitle}
          picture={artwork.still}
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

      <CreateCollectionDialog
        open={createOpen}
        onOpenChange={setCreateOpen}
        doneLabel="Continue"
        onCreated={(created) => {
          state.selectWhenListed(created.address);
          void queryClient.invalidateQueries({ queryKey: itemKeys.mintCollections(typeId) });
        }}
      />
      <MintDialog progress={submit.dialogProgress} onClose={() => submit.closeDialog(startOver)} />
    </section>
  );
}

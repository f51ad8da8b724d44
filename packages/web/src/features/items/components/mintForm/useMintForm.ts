import { MINT_MESSAGES } from "@easel/common";
import { zodResolver } from "@hookform/resolvers/zod";
import { useEffect, useState } from "react";
import { useForm } from "react-hook-form";
import { useMintCollections } from "../../api/items.ts";
import { type MintFormInput, type MintFormValues, mintFormSchema } from "../../lib/mintForm.ts";

/** The mint form's starting values (and what it returns to after a mint). */
export const EMPTY_MINT_FORM: MintFormInput = {
  type: "",
  file: undefined as never,
  collection: "",
  lazy: false,
  name: "",
  royalty: 10,
  description: "",
  tags: [],
  properties: [],
  price: "",
  rights: false as never,
  terms: false as never,
};

/**
 * The mint form's state: react-hook-form with the shared schema, the chosen type and its collections, and
 * the rules that tie them (a new type empties the collection; a lazy collection makes a lazy item; a
 * collection created from the form is selected once the list holds it).
 */
export function useMintForm() {
  const form = useForm<MintFormInput, unknown, MintFormValues>({
    resolver: zodResolver(mintFormSchema),
    defaultValues: EMPTY_MINT_FORM,
  });
  const { setValue, clearErrors, watch } = form;
  const type = watch("type");
  const typeId = type ? Number(type) : null;
  const collections = useMintCollections(typeId);
  const collectionAddress = watch("collection");
  const chosen = collections.data?.find((c) => c.contract_address === collectionAddress) ?? null;
  const lazy = chosen?.type === "lazy";
  /** A collection just created from here, selected once the list holds it. */
  const [createdCollection, selectWhenListed] = useState<string | null>(null);

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
    selectWhenListed(null);
  }, [createdCollection, collections.data, setValue]);

  return { form, type, typeId, collections, chosen, lazy, selectWhenListed };
}

export type MintFormState = ReturnType<typeof useMintForm>;
/** A collection the artist may mint into, as `GET /api/mint/collections` lists it. */
export type MintCollection = NonNullable<MintFormState["chosen"]>;

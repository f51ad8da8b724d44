import { richTextPlain } from "@easel/common";
import type { UseFormSetError } from "react-hook-form";
import { ApiError } from "../../../../api/client.ts";
import { applyServerErrors } from "../../../../ui/Field.tsx";
import { fromMarkup } from "../../../browse/lib/richTextMarkup.ts";
import { uploadMint } from "../../api/items.ts";
import { type MintFormInput, type MintFormValues, priceWei } from "../../lib/mintForm.ts";
import type { SplitPerson } from "../SplitDialog.tsx";
import type { MintCollection } from "./useMintForm.ts";

export type UploadStepParameters = {
  values: MintFormValues;
  collection: MintCollection;
  /** The people the earnings are split with (none, or the creator and at least one other). */
  split: readonly SplitPerson[];
  /** A video's or PDF's poster, sent with it (without one, the card shows the type's tile). */
  poster: Blob | null;
  onProgress: (percent: number) => void;
};

export type UploadStepReturnType = Awaited<ReturnType<typeof uploadMint>>;

/**
 * The mint form's upload step: the artwork, its poster and its details go to `POST /api/mint` (or
 * `/api/mint/lazymint` for a lazy collection), which stores them with their ERC-721 metadata and answers
 * the metadata's CID that the wallet then mints (or, lazily, the item's page).
 */
export function uploadStep({ values, collection, split, poster, onProgress }: UploadStepParameters) {
  return uploadMint(values.lazy, mintFormData(values, collection, split, poster), onProgress);
}

/** The multipart body of the upload, in the fields the server reads. */
export function mintFormData(
  values: MintFormValues,
  collection: MintCollection,
  split: readonly SplitPerson[],
  poster: Blob | null,
) {
  const body = new FormData();
  body.append("category_web2_id", values.type);
  body.append("collection", collection.contract_address);
  body.append("name", values.name);
  body.append("royalty", String(values.royalty));
  const doc = fromMarkup(values.description);
  body.append("description", richTextPlain(doc).trim());
  if (doc) body.append("description_ui", JSON.stringify(doc));
  body.append("tags", JSON.stringify(values.tags));
  if (values.properties.length) body.append("properties", JSON.stringify(values.properties));
  const people = split.length > 1 ? split.map((p) => ({ address: p.address, share: p.share })) : [];
  body.append("_collaborators", JSON.stringify(people));
  if (values.lazy) body.append("price", String(priceWei(values.price) ?? 0n));
  body.append("file", values.file, values.file.name);
  if (poster) body.append("poster", poster, poster.type === "image/webp" ? "poster.webp" : "poster.png");
  return body;
}

/** Puts the server's refusal of an upload under the fields it names. */
export function showUploadErrors(error: unknown, setError: UseFormSetError<MintFormInput>) {
  applyServerErrors(error, setError, [
    "name",
    "royalty",
    "description",
    "tags",
    "properties",
    "price",
    "collection",
    "file",
  ]);
  // The poster belongs to the file: its refusal shows there.
  const posterError = error instanceof ApiError ? error.fields?.poster : undefined;
  if (posterError) setError("file", { type: "server", message: posterError });
}

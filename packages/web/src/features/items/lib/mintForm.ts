import {
  LAZY_PRICE_MIN_WEI,
  MINT_DESCRIPTION_MAX,
  MINT_DESCRIPTION_MIN,
  MINT_FILE_MAX_BYTES,
  MINT_MESSAGES,
  mintName,
  mintProperties,
  mintRoyalty,
  mintTags,
  richTextPlain,
} from "@easel/common";
import { z } from "zod";
import { parseEthAmount } from "../../../lib/eth.ts";
import { fromMarkup } from "../../browse/lib/richTextMarkup.ts";

/** Types the file picker offers; the server decides by the bytes. */
export const ACCEPTED_FILES =
  "image/png,image/jpeg,image/gif,image/webp,video/mp4,video/webm,application/pdf";

/** The lazy price in wei, or null when the text is not an amount of ETH. */
export const priceWei = parseEthAmount;

/**
 * The mint form: the shared rules of the mint payload (name, royalty, tags, properties) plus what only the form holds
 * (the file, the description as markup, the lazy price in ETH, the rights and terms boxes).
 */
export const mintFormSchema = z
  .object({
    type: z.string().min(1, MINT_MESSAGES.typeRequired),
    file: z
      .custom<File>((value) => value instanceof File, MINT_MESSAGES.fileRequired)
      .refine((file) => file.size <= MINT_FILE_MAX_BYTES, MINT_MESSAGES.fileTooLarge),
    collection: z.string().min(1, MINT_MESSAGES.collectionRequired),
    lazy: z.boolean(),
    name: mintName,
    royalty: mintRoyalty,
    description: z.string().superRefine((markup, ctx) => {
      const length = richTextPlain(fromMarkup(markup)).trim().length;
      if (length < MINT_DESCRIPTION_MIN)
        ctx.addIssue({ code: "custom", message: MINT_MESSAGES.descriptionRequired });
      if (length > MINT_DESCRIPTION_MAX)
        ctx.addIssue({ code: "custom", message: MINT_MESSAGES.descriptionOver });
    }),
    tags: mintTags,
    properties: mintProperties,
    price: z.string(),
    rights: z.literal(true, { error: MINT_MESSAGES.required }),
    terms: z.literal(true, { error: MINT_MESSAGES.required }),
  })
  .superRefine((values, ctx) => {
    if (!values.lazy) return;
    if (values.price.trim() === "") {
      ctx.addIssue({ code: "custom", path: ["price"], message: MINT_MESSAGES.priceRequired });
      return;
    }
    const wei = priceWei(values.price);
    if (wei === null) ctx.addIssue({ code: "custom", path: ["price"], message: MINT_MESSAGES.priceRequired });
    else if (wei < LAZY_PRICE_MIN_WEI)
      ctx.addIssue({ code: "custom", path: ["price"], message: MINT_MESSAGES.priceMin });
  });
export type MintFormInput = z.input<typeof mintFormSchema>;
export type MintFormValues = z.output<typeof mintFormSchema>;

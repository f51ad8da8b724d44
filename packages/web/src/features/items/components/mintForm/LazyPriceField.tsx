import { LAZY_PRICE_MIN_ETH } from "@easel/common";
import { TextField } from "../../../../ui/Field.tsx";
import { UsdValue } from "../../../../ui/UsdValue.tsx";
import { priceWei } from "../../lib/mintForm.ts";
import type { MintFormState } from "./useMintForm.ts";

/** The form's "List price (ETH)" field, shown for a lazy collection: what a buyer pays to mint the item. */
export function LazyPriceField({ form }: Pick<MintFormState, "form">) {
  const {
    register,
    watch,
    formState: { errors },
  } = form;
  return (
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
  );
}

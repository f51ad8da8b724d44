import {
  BROWSE_MESSAGES,
  createCollectionFormSchema,
  LAZY_MAX_SUPPLY_DEFAULT,
  type LazyVoucherResponse,
} from "@easel/common";
import { easelFactoryAbi } from "@easel/contracts/abis";
import { zodResolver } from "@hookform/resolvers/zod";
import { useQueryClient } from "@tanstack/react-query";
import { useId, useRef, useState } from "react";
import { useForm } from "react-hook-form";
import { Link } from "react-router";
import { toast } from "sonner";
import { parseEventLogs } from "viem";
import type { z } from "zod";
import { ApiError, errorMessage } from "../../../api/client.ts";
import { SESSION_QUERY_KEY, useSession } from "../../../auth/session.ts";
import { Button } from "../../../ui/Button.tsx";
import { applyServerErrors, TextField } from "../../../ui/Field.tsx";
import { Modal } from "../../../ui/Modal.tsx";
import { useFactory } from "../../../web3/contracts.ts";
import { Stepper } from "../../../web3/tx/Stepper.tsx";
import { apiStep, type StepStatus, writeStep } from "../../../web3/tx/steps.ts";
import { useTransactionFlow } from "../../../web3/tx/useTransactionFlow.ts";
import {
  browseKeys,
  checkCollectionName,
  fetchLazyVoucher,
  registerCollection,
  useCategories,
} from "../api/browse.ts";
import { CategorySelect } from "./CategorySelect.tsx";

type FormInput = z.input<typeof createCollectionFormSchema>;
type FormOutput = z.output<typeof createCollectionFormSchema>;

/** The collection the dialog created, for the page that opened it. */
export type CreatedCollection = { address: `0x${string}`; name: string; slug: string };

export const CREATE_STEPS = {
  confirm: "Waiting for confirmation...",
  generating: "Your smart contract is being generated...",
  deployed: "Congratulations! Your smart contract was deployed",
} as const;

/**
 * Create New Collection (the spec's create-collection dialog): the form, the name check, then one wallet
 * transaction to the factory (lazy collections with the platform's voucher) and the registration with Easel.
 * It cannot be closed while the wallet flow runs, and closes by itself when the registration fails.
 *
 * @param doneLabel 'Continue' on the mint page (which then selects the new collection), 'Done' elsewhere.
 */
export function CreateCollectionDialog({
  open,
  onOpenChange,
  doneLabel = "Done",
  onCreated,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  doneLabel?: "Done" | "Continue";
  onCreated?: (collection: CreatedCollection) => void;
}) {
  const [locked, setLocked] = useState(false);
  return (
    <Modal open={open} onOpenChange={onOpenChange} title="Create New Collection" locked={locked}>
      {open ? (
        <CreateCollection
          doneLabel={doneLabel}
          onLockedChange={setLocked}
          onClose={(created) => {
            setLocked(false);
            if (created) onCreated?.(created);
            onOpenChange(false);
          }}
        />
      ) : null}
    </Modal>
  );
}

function CreateCollection({
  doneLabel,
  onLockedChange,
  onClose,
}: {
  doneLabel: "Done" | "Continue";
  onLockedChange: (locked: boolean) => void;
  onClose: (created?: CreatedCollection) => void;
}) {
  const { profile } = useSession();
  // The spec offers the Lazy type only while the permission allows one more; the session counts what is left.
  const mayCreateLazy = (profile?.permission.collection.lazyCollectionsLeft ?? 0) >= 1;
  const categories = useCategories();
  const factory = useFactory();
  const flow = useTransactionFlow();
  const queryClient = useQueryClient();
  const [created, setCreated] = useState<CreatedCollection | null>(null);
  const deployedAt = useRef<`0x${string}` | null>(null);
  // A voucher the wallet did not send (rejected, failed) holds one of the allowance until it expires, so a
  // retry of the same collection sends it again rather than asking for another, which would be refused.
  const unsent = useRef<{ key: string; voucher: LazyVoucherResponse["data"]["voucher"] } | null>(null);
  const form = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(createCollectionFormSchema),
    defaultValues: {
      name: "",
      symbol: "",
      collectionType: "standard",
      category_web2_id: "",
      maximumSupply: LAZY_MAX_SUPPLY_DEFAULT,
      terms: false as never,
    },
  });
  const {
    register,
    handleSubmit,
    setError,
    watch,
    formState: { errors, isSubmitting },
  } = form;
  const lazy = watch("collectionType") === "lazy";
  const typeErrorId = useId();

  const onSubmit = handleSubmit(async (values) => {
    const category = categories.data?.find((c) => c._id === values.category_web2_id);
    if (!factory || !category) {
      toast.error("Easel's contracts are not available right now. Please try again later.");
      return;
    }
    // The factory creates collections for verified artists only: said before the wallet, not after a revert.
    if (!profile?.permission.mint) {
      toast.warning(BROWSE_MESSAGES.notArtistCollection);
      return;
    }
    let voucher: LazyVoucherResponse["data"]["voucher"] | null = null;
    try {
      await checkCollectionName(values.name, values.symbol);
      if (values.collectionType === "lazy") {
        const key = JSON.stringify([
          values.name,
          values.symbol,
          values.category_web2_id,
          values.maximumSupply,
        ]);
        const kept = unsent.current;
        if (kept?.key === key && Number(kept.voucher.deadline) * 1000 > Date.now() + 60_000) {
          voucher = kept.voucher;
        } else {
          voucher = await fetchLazyVoucher({
            name: values.name,
            symbol: values.symbol,
            catWeb2_id: values.category_web2_id,
            maximumSupply: values.maximumSupply,
          });
          unsent.current = { key, voucher };
        }
      }
    } catch (error) {
      if (error instanceof ApiError && error.code === "no_lazy_permission") {
        // The allowance ran out since the session was read (another tab, a voucher still out): say so at the
        // type, and read the session again so Lazy is no longer offered.
        setError("collectionType", { type: "server", message: error.message });
        void queryClient.invalidateQueries({ queryKey: SESSION_QUERY_KEY });
        return;
      }
      applyServerErrors(error, setError, ["name", "symbol", "category_web2_id", "maximumSupply"]);
      toast.warning(errorMessage(error));
      return;
    }
    // A voucher holds one of the allowance while it is valid: the session's count changes with it.
    if (voucher) void queryClient.invalidateQueries({ queryKey: SESSION_QUERY_KEY });

    let address: `0x${string}` | null = null;
    const call = voucher
      ? {
          ...factory,
          functionName: "createLazyCollection",
          args: [{ ...voucher, deadline: BigInt(voucher.deadline) }],
        }
      : { ...factory, functionName: "createCollection", args: [values.name, values.symbol, category.title] };
    let slug = "";
    onLockedChange(true);
    const ok = await flow.run([
      writeStep(CREATE_STEPS.confirm, call, (receipt) => {
        deployedAt.current = receipt.transactionHash;
        const [event] = parseEventLogs({
          abi: easelFactoryAbi,
          logs: receipt.logs,
          eventName: "CollectionCreated",
        });
        address = event?.args.collection.toLowerCase() as `0x${string}`;
      }),
      apiStep(CREATE_STEPS.generating, async () => {
        if (!address) throw new Error("The factory did not report the new collection.");
        slug = (
          await registerCollection({
            contract_address: address,
            name: values.name,
            symbol: values.symbol,
            collectionType: values.collectionType,
            category_web2_id: values.category_web2_id,
          })
        ).slug;
      }),
    ]);
    onLockedChange(false);
    if (ok && address) {
      unsent.current = null;
      setCreated({ address, name: values.name, slug });
      void queryClient.invalidateQueries({ queryKey: browseKeys.all });
      return;
    }
    // The collection is on chain but Easel could not register it: an HTTP error closes the dialog (the toast
    // says why). A wallet error returns to the form.
    if (deployedAt.current) onClose();
    else flow.reset();
  });

  if (flow.steps) {
    return (
      <div className="flex flex-col gap-5" role="status" aria-live="polite">
        <Stepper steps={createSteps(flow.steps, !!created)} label="Creating your collection" />
        {created ? (
          <>
            <p className="text-sm text-neutral-700 dark:text-neutral-300">
              <Link
                to={`/collection/${encodeURIComponent(created.slug)}`}
                className="font-semibold underline"
              >
                {created.name}
              </Link>{" "}
              is ready for its first items.
            </p>
            <Button onClick={() => onClose(created)}>{doneLabel}</Button>
          </>
        ) : null}
      </div>
    );
  }

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
      <TextField label="Name" autoComplete="off" error={errors.name?.message} {...register("name")} />
      <TextField
        label="Symbol"
        autoComplete="off"
        hint="1 to 8 characters, e.g. HRB"
        error={errors.symbol?.message}
        {...register("symbol")}
      />
      {/* Kept while Lazy is chosen, so a refusal shows beside it and Standard can be picked instead. */}
      {mayCreateLazy || lazy ? (
        <fieldset
          className="flex flex-col gap-2"
          aria-describedby={errors.collectionType ? typeErrorId : undefined}
        >
          <legend className="text-sm font-semibold">Collection Type</legend>
          <div className="flex gap-4">
            {(["standard", "lazy"] as const).map((type) => (
              <label key={type} className="flex items-center gap-2 text-sm">
                <input
                  type="radio"
                  value={type}
                  className="accent-accent-600"
                  disabled={type === "lazy" && !mayCreateLazy}
                  {...register("collectionType")}
                />
                {type === "standard" ? "Standard" : "Lazy"}
              </label>
            ))}
          </div>
          {errors.collectionType ? (
            <p id={typeErrorId} role="alert" className="text-sm text-red-700 dark:text-red-400">
              {errors.collectionType.message}
            </p>
          ) : null}
        </fieldset>
      ) : null}
      {lazy ? (
        <TextField
          label="Maximum supply"
          type="number"
          min={1}
          inputMode="numeric"
          hint="How many items the lazy collection may ever hold."
          error={errors.maximumSupply?.message}
          {...register("maximumSupply")}
        />
      ) : null}
      <CategorySelect
        label="Category"
        placeholder="Select a category"
        error={errors.category_web2_id?.message}
        {...register("category_web2_id")}
      />
      <div className="flex flex-col gap-1">
        <label className="flex items-start gap-2 text-sm">
          <input
            type="checkbox"
            className="mt-0.5 accent-accent-600"
            aria-invalid={errors.terms ? true : undefined}
            {...register("terms")}
          />
          <span>
            I agree to Easel's{" "}
            <Link to="/TermsOfServices" target="_blank" className="underline">
              Terms of Service
            </Link>
          </span>
        </label>
        {errors.terms ? (
          <p className="text-sm text-red-700 dark:text-red-400">{errors.terms.message}</p>
        ) : null}
      </div>
      <Button type="submit" loading={isSubmitting} loadingText="Checking...">
        Create Collection
      </Button>
    </form>
  );
}

/** The flow's two steps drawn as the spec's three: confirm in the wallet, generating, deployed. */
function createSteps(steps: readonly StepStatus[], done: boolean): StepStatus[] {
  const [write, registration] = steps;
  const sent = !!write?.hash || write?.state === "done";
  const failed = write?.state === "failed" || registration?.state === "failed";
  return [
    {
      id: "confirm",
      label: CREATE_STEPS.confirm,
      state: sent ? "done" : write?.state === "failed" ? "failed" : "running",
    },
    {
      id: "generating",
      label: CREATE_STEPS.generating,
      state: !sent ? "waiting" : done ? "done" : failed ? "failed" : "running",
      ...(sent && !done && write?.hash ? { hash: write.hash } : {}),
    },
    {
      id: "deployed",
      label: CREATE_STEPS.deployed,
      state: done ? "done" : "waiting",
      ...(done && write?.hash ? { hash: write.hash } : {}),
    },
  ];
}

import { MINT_MESSAGES, MINT_PROPERTIES_MAX } from "@easel/common";
import { zodResolver } from "@hookform/resolvers/zod";
import { act, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { useForm } from "react-hook-form";
import { describe, expect, it } from "vitest";
import { type MintFormInput, type MintFormValues, mintFormSchema } from "../../lib/mintForm.ts";
import { PropertiesField } from "./PropertiesField.tsx";
import { EMPTY_MINT_FORM, type MintFormState } from "./useMintForm.ts";

let form: MintFormState["form"];

/** The section in the form's real state: react-hook-form with the shared schema. */
function Harness() {
  form = useForm<MintFormInput, unknown, MintFormValues>({
    resolver: zodResolver(mintFormSchema),
    defaultValues: EMPTY_MINT_FORM,
  });
  return (
    <form onSubmit={form.handleSubmit(() => {})} noValidate>
      <PropertiesField form={form} />
      <button type="submit">Create NFT</button>
    </form>
  );
}

const add = () => fireEvent.click(screen.getByRole("button", { name: "Add property" }));
const type = (label: string, value: string) =>
  fireEvent.change(screen.getByRole("textbox", { name: label }), { target: { value } });
const submit = () => act(async () => fireEvent.click(screen.getByRole("button", { name: "Create NFT" })));

describe("the mint form's properties", () => {
  it("adds rows of a name and a value, and removes the one asked", async () => {
    render(<Harness />);
    expect(screen.queryByRole("list", { name: "Properties" })).toBeNull();
    add();
    add();
    type("Property 1 name", "Mood");
    type("Property 1 value", "Calm");
    type("Property 2 name", "Palette");
    type("Property 2 value", "Warm");
    fireEvent.click(screen.getByRole("button", { name: "Remove property 1" }));
    expect(screen.getAllByRole("listitem")).toHaveLength(1);
    expect(screen.getByRole("textbox", { name: "Property 1 name" })).toHaveProperty("value", "Palette");
    expect(form.getValues("properties")).toEqual([{ name: "Palette", value: "Warm" }]);
    expect(await form.trigger("properties")).toBe(true);
  });

  it("shows each problem under its row in plain words: a missing name or value, a name used twice", async () => {
    render(<Harness />);
    add();
    add();
    add();
    type("Property 1 name", "Mood");
    type("Property 1 value", "Calm");
    type("Property 2 name", " mood ");
    type("Property 2 value", "Stormy");
    type("Property 3 value", "Blue");
    await submit();
    expect(await screen.findByText(MINT_MESSAGES.propertyDuplicate)).toBeTruthy();
    expect(screen.getByText(MINT_MESSAGES.propertyNameRequired)).toBeTruthy();
    expect(screen.getByRole("textbox", { name: "Property 2 name" }).getAttribute("aria-invalid")).toBe(
      "true",
    );
    expect(screen.getByRole("textbox", { name: "Property 1 name" }).getAttribute("aria-invalid")).toBeNull();

    // Fixed, the messages go.
    type("Property 2 name", "Weather");
    type("Property 3 name", "Sky");
    await waitFor(() => expect(screen.queryByText(MINT_MESSAGES.propertyDuplicate)).toBeNull());
    expect(screen.queryByText(MINT_MESSAGES.propertyNameRequired)).toBeNull();
  });

  it(`stops adding at ${MINT_PROPERTIES_MAX}, and refuses Category and Tag, which the metadata fills in`, async () => {
    render(<Harness />);
    for (let i = 0; i < MINT_PROPERTIES_MAX; i++) add();
    expect(screen.getAllByRole("listitem")).toHaveLength(MINT_PROPERTIES_MAX);
    expect(screen.getByRole("button", { name: "Add property" })).toHaveProperty("disabled", true);
    type("Property 1 name", "Category");
    type("Property 1 value", "Sculpture");
    await submit();
    expect(await screen.findByText(MINT_MESSAGES.propertyReserved)).toBeTruthy();
  });
});

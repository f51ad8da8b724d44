import { MINT_MESSAGES } from "@easel/common";
import { fireEvent, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { ALICE, fakeApi, renderApp, sessionRoute, signedIn } from "../../../test/harness.tsx";

const artist = () =>
  signedIn(ALICE, {
    profile: {
      address: ALICE,
      username: "painter",
      name: null,
      avatar: null,
      active: true,
      permission: { collection: { lazyCollection: 0 }, mint: true },
    },
  });

function api(session = artist()) {
  return fakeApi({
    ...sessionRoute({ current: session }),
    "GET /api/category-web2": () => ({
      body: { data: { category_web2: [{ _id: 1, title: "Painting", retired: false }] } },
    }),
    "GET /api/mint/collections": () => ({
      body: {
        data: {
          collections: [
            {
              _id: "0x9a676e781a523b5d0c0e43731313a708cb607508",
              name: "Studio Works",
              contract_address: "0x9a676e781a523b5d0c0e43731313a708cb607508",
              type: "standard",
              slug: "Studio Works",
              remaining: null,
            },
          ],
        },
      },
    }),
    "GET /api/profile/search-complete-users": () => ({ body: { data: { users: [] } } }),
  });
}

/** Picks the type Painting once the types have loaded. */
async function chooseType(title = "Painting") {
  await screen.findByRole("option", { name: title });
  fireEvent.change(screen.getByLabelText("Type"), { target: { value: "1" } });
}

describe("the mint page", () => {
  it("tells a standard user that only verified artists mint, with the way to apply", async () => {
    api(signedIn());
    await renderApp({ path: "/mint" });
    expect(await screen.findByText(MINT_MESSAGES.notArtist)).toBeTruthy();
    expect(screen.getByRole("link", { name: "Apply to join" }).getAttribute("href")).toBe("/applyToJoin");
    expect(screen.queryByLabelText("Upload file")).toBeNull();
  });

  it("asks for the type before the file, and names every missing field in the spec's words", async () => {
    api();
    await renderApp({ path: "/mint" });
    fireEvent.click(await screen.findByLabelText("Upload file"));
    expect((await screen.findAllByText(MINT_MESSAGES.selectTypeFirst)).length).toBeGreaterThan(0);
    fireEvent.click(screen.getByRole("button", { name: "Create NFT" }));
    for (const message of [
      MINT_MESSAGES.typeRequired,
      MINT_MESSAGES.fileRequired,
      MINT_MESSAGES.collectionRequired,
      MINT_MESSAGES.nameRequired,
      MINT_MESSAGES.descriptionRequired,
    ]) {
      expect(await screen.findByText(message)).toBeTruthy();
    }
    expect(screen.getAllByText(MINT_MESSAGES.required)).toHaveLength(2);
  });

  it("refuses a royalty above 20% and a file over 50MB", async () => {
    api();
    await renderApp({ path: "/mint" });
    await chooseType();
    fireEvent.change(screen.getByLabelText("Royalty (%)"), { target: { value: "25" } });
    const big = new File(["x"], "big.png", { type: "image/png" });
    Object.defineProperty(big, "size", { value: 50 * 1024 * 1024 + 1 });
    fireEvent.change(screen.getByLabelText("Upload file"), { target: { files: [big] } });
    fireEvent.click(screen.getByRole("button", { name: "Create NFT" }));
    expect(await screen.findByText(MINT_MESSAGES.royaltyMax)).toBeTruthy();
    expect(await screen.findByText(MINT_MESSAGES.fileTooLarge)).toBeTruthy();
  });

  it("keeps the creator in the split and enables Split only at exactly 100%", async () => {
    api();
    await renderApp({ path: "/mint" });
    fireEvent.click(await screen.findByRole("switch"));
    const dialog = await screen.findByRole("dialog", { name: "Split earnings" });
    fireEvent.click(within(dialog).getByRole("button", { name: "Remove You" }));
    expect(within(dialog).getByText(MINT_MESSAGES.omitYourself)).toBeTruthy();
    const split = within(dialog).getByRole("button", { name: "Split" }) as HTMLButtonElement;
    const share = within(dialog).getByLabelText("Share of You in percent");
    fireEvent.change(share, { target: { value: "90" } });
    expect(split.disabled).toBe(true);
    fireEvent.change(share, { target: { value: "100" } });
    expect(split.disabled).toBe(false);
    // Closing with nobody else turns the toggle back off.
    fireEvent.click(within(dialog).getByRole("button", { name: "Cancel" }));
    expect((screen.getByRole("switch") as HTMLInputElement).checked).toBe(false);
  });
});

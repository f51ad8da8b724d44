import { MINT_MESSAGES } from "@easel/common";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { ALICE, fakeApi, renderApp, sessionRoute, signedIn } from "../../../test/harness.tsx";
import { evenShares } from "./SplitDialog.tsx";

const artist = () =>
  signedIn(ALICE, {
    profile: {
      address: ALICE,
      username: "painter",
      name: null,
      avatar: null,
      active: true,
      permission: { collection: { lazyCollection: 0, lazyCollectionsLeft: 0 }, mint: true },
    },
  });

function api(session = artist()) {
  return fakeApi({
    ...sessionRoute({ current: session }),
    "GET /api/category-web2": () => ({
      body: {
        data: {
          category_web2: [
            { _id: 1, title: "Painting", retired: false },
            { _id: 2, title: "Pixel Art", retired: false },
          ],
        },
      },
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
  const option = (await screen.findByRole("option", { name: title })) as HTMLOptionElement;
  fireEvent.change(screen.getByLabelText("Type"), { target: { value: option.value } });
}

/** The element that describes a control (its error or hint), by the control's aria-describedby. */
const describedBy = (control: HTMLElement) =>
  (control.getAttribute("aria-describedby") ?? "")
    .split(" ")
    .map((id) => document.getElementById(id)?.textContent)
    .join(" ");

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

  it("shares 100% in even steps of 5 among 1 to 5 people", () => {
    expect([1, 2, 3, 4, 5].map(evenShares)).toEqual([
      [100],
      [50, 50],
      [35, 35, 30],
      [25, 25, 25, 25],
      [20, 20, 20, 20, 20],
    ]);
  });

  it("shares evenly as collaborators are added or removed, each share editable, the first one taken at once", async () => {
    const BOB = "0x90f79bf6eb2c4f870365e785982e1f101e93b906";
    const CAROL = "0x15d34aaf54267db7d7c367839aaf71a00a2c6a65";
    const users = { bob: BOB, carol: CAROL };
    fakeApi({
      ...sessionRoute({ current: artist() }),
      "GET /api/category-web2": () => ({ body: { data: { category_web2: [] } } }),
      "GET /api/profile/search-complete-users": (_init, url) => {
        const key = url.searchParams.get("userKey") as keyof typeof users;
        return { body: { data: { users: [{ address: users[key], username: key, avatar: null }] } } };
      },
    });
    await renderApp({ path: "/mint" });
    fireEvent.click(await screen.findByRole("switch"));
    const dialog = await screen.findByRole("dialog", { name: "Split earnings" });
    const share = (who: string) =>
      (within(dialog).getByLabelText(`Share of ${who} in percent`) as HTMLInputElement).value;
    const addPerson = async (name: string) => {
      fireEvent.change(within(dialog).getByLabelText("Add a collaborator"), { target: { value: name } });
      // The list answers the typed name once the search has waited for the typing to stop.
      fireEvent.click(await within(dialog).findByRole("button", { name: new RegExp(`^${name}`) }));
    };
    expect(share("You")).toBe("100");
    await addPerson("bob");
    // No "You reached 100%": the first collaborator is taken, and both get half.
    expect(within(dialog).queryByText(MINT_MESSAGES.reached100)).toBeNull();
    expect([share("You"), share("bob")]).toEqual(["50", "50"]);
    const split = within(dialog).getByRole("button", { name: "Split" }) as HTMLButtonElement;
    expect(split.disabled).toBe(false);
    await addPerson("carol");
    expect([share("You"), share("bob"), share("carol")]).toEqual(["35", "35", "30"]);
    expect(split.disabled).toBe(false);
    // Editable: a share changed by hand is kept until the total is 100 again.
    fireEvent.change(within(dialog).getByLabelText("Share of carol in percent"), { target: { value: "40" } });
    expect(split.disabled).toBe(true);
    fireEvent.change(within(dialog).getByLabelText("Share of You in percent"), { target: { value: "25" } });
    expect([share("You"), share("bob"), share("carol")]).toEqual(["25", "35", "40"]);
    expect(split.disabled).toBe(false);
    fireEvent.click(within(dialog).getByRole("button", { name: "Remove carol" }));
    expect([share("You"), share("bob")]).toEqual(["50", "50"]);
  });

  it("takes the artwork from the keyboard or a drop, shows it at once and fills the card preview live", async () => {
    api();
    await renderApp({ path: "/mint" });
    const input = (await screen.findByLabelText("Upload file")) as HTMLInputElement;
    // Before a type, Enter on the focused picker says what to do, next to the field (and tied to it).
    input.focus();
    expect(document.activeElement).toBe(input);
    fireEvent.keyDown(input, { key: "Enter" });
    expect(describedBy(input)).toContain(MINT_MESSAGES.selectTypeFirst);
    expect(input.getAttribute("aria-invalid")).toBe("true");
    const zone = screen.getByTestId("dropzone");
    const art = new File([new Uint8Array(64)], "harbour.png", { type: "image/png" });
    fireEvent.drop(zone, { dataTransfer: { files: [art] } });
    expect(screen.queryByAltText("Preview of the artwork")).toBeNull();

    await chooseType();
    fireEvent.keyDown(input, { key: "Enter" });
    expect(describedBy(input)).not.toContain(MINT_MESSAGES.selectTypeFirst);
    fireEvent.drop(zone, { dataTransfer: { files: [art] } });
    const preview = (await screen.findByAltText("Preview of the artwork")) as HTMLImageElement;
    expect(preview.src).toMatch(/^blob:/);
    expect(within(zone).getByText("harbour.png")).toBeTruthy();

    // The card as collectors will see it: the same picture, the name as typed, the artist.
    const card = screen.getByTestId("card-preview");
    expect(card.hasAttribute("inert")).toBe(true);
    expect(within(card).getByRole("heading").textContent).toBe("Untitled");
    fireEvent.change(screen.getByLabelText("Name"), { target: { value: "Harbour at Dawn" } });
    expect(within(card).getByRole("heading").textContent).toBe("Harbour at Dawn");
    const picture = within(card).getByAltText("Harbour at Dawn") as HTMLImageElement;
    expect(picture.src).toBe(preview.src);
    expect(within(card).getByText("painter")).toBeTruthy();
    expect(picture.style.imageRendering).toBe("");
    // Pixel Art: the card draws crisp pixels.
    await chooseType("Pixel Art");
    expect((within(card).getByAltText("Harbour at Dawn") as HTMLImageElement).style.imageRendering).toBe(
      "pixelated",
    );
    // A video plays in the zone at once (its poster, drawn in the background, goes to the card).
    const video = new File([new Uint8Array(64)], "loop.webm", { type: "video/webm" });
    fireEvent.change(input, { target: { files: [video] } });
    expect((await screen.findByLabelText("Video preview")).tagName).toBe("VIDEO");
    expect(within(zone).getByText("loop.webm")).toBeTruthy();
  });

  it("lists what to fix after a failed submit, each leading to its field", async () => {
    api();
    await renderApp({ path: "/mint" });
    await chooseType();
    fireEvent.change(screen.getByLabelText("Name"), { target: { value: "Harbour" } });
    fireEvent.click(screen.getByRole("button", { name: "Create NFT" }));
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toContain("fields need your attention");
    const listed = () =>
      within(screen.getByRole("alert"))
        .getAllByRole("button")
        .map((b) => b.textContent);
    expect(listed()).toEqual(["Upload file", "Collection", "Description", "Rights", "Terms of Service"]);
    fireEvent.click(within(alert).getByRole("button", { name: "Collection" }));
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText("Collection")));
    fireEvent.click(within(alert).getByRole("button", { name: "Description" }));
    expect(document.activeElement).toBe(screen.getByLabelText("Description"));
    fireEvent.click(within(alert).getByRole("button", { name: "Rights" }));
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText(/I own the rights/)));
    // Each message also sits under its own field.
    expect(describedBy(screen.getByLabelText("Upload file"))).toContain(MINT_MESSAGES.fileRequired);
    // Fixed, a field leaves the list.
    fireEvent.change(screen.getByLabelText("Collection"), {
      target: { value: "0x9a676e781a523b5d0c0e43731313a708cb607508" },
    });
    fireEvent.click(screen.getByRole("button", { name: "Create NFT" }));
    await waitFor(() => expect(listed()).not.toContain("Collection"));
    expect(describedBy(screen.getByLabelText("Collection"))).not.toContain(MINT_MESSAGES.collectionRequired);
  });
});

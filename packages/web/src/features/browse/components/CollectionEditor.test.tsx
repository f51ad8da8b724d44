import { fireEvent, screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { fakeApi, renderApp, sessionRoute, signedIn } from "../../../test/harness.tsx";

const OWNER = "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc";
const ADDRESS = "0x00000000000000000000000000000000000c0113";

function collectionBody(isOwner: boolean) {
  return {
    data: {
      collection: {
        _id: ADDRESS,
        contract_address: ADDRESS,
        name: "Harbour Lights",
        slug: "Harbour Lights",
        symbol: "HRB",
        collectionType: "standard",
        logo: null,
        banner: null,
        description: { type: "doc", paragraphs: [{ runs: [{ text: "Old", bold: true }] }] },
        category: { _id: 1, title: "Painting" },
        owner: { address: OWNER, username: "bob", name: null, avatar: null },
        time_created: "2026-01-01T00:00:00.000Z",
        blocked: false,
        favorites: 0,
        stats: {
          artworks: 0,
          owners: 0,
          floorPriceWei: null,
          highestSaleWei: null,
          totalSales: 0,
          volumeWei: "0",
        },
        social: {},
      },
      nfts: [],
      nextCursor: null,
      isOwner,
      isFavorite: false,
    },
  };
}

describe("edit collection", () => {
  it("is for the owner only", async () => {
    fakeApi({
      ...sessionRoute({ current: signedIn() }),
      "GET /api/collection": () => ({ body: collectionBody(false) }),
    });
    await renderApp({ path: "/collections/edit/Harbour%20Lights" });
    expect(await screen.findByText("Only the collection's owner can do this.")).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Save changes" })).toBeNull();
  });

  it("saves the description as a rich-text document, refuses more than 1000 characters, and returns to the page", async () => {
    const api = fakeApi({
      ...sessionRoute({ current: signedIn(OWNER) }),
      "GET /api/collection": () => ({ body: collectionBody(true) }),
      "PUT /api/collection/edit": () => ({
        body: { data: { message: "Your collection updated successfully." } },
      }),
    });
    const { router } = await renderApp({ path: "/collections/edit/Harbour%20Lights" });
    const description = (await screen.findByLabelText("Description")) as HTMLTextAreaElement;
    expect(description.value).toBe("**Old**");
    expect(screen.getByRole("link", { name: "Statistics" }).getAttribute("href")).toBe(
      "/collection/Harbour%20Lights?view=statistics",
    );
    expect(screen.getByRole("link", { name: /Back to Harbour Lights/ })).toBeTruthy();

    fireEvent.change(description, { target: { value: "x".repeat(1001) } });
    fireEvent.click(screen.getByRole("button", { name: "Save changes" }));
    expect(await screen.findByText("Description must be 1000 characters maximum.")).toBeTruthy();
    expect(api.calls.some((c) => c.method === "PUT")).toBe(false);

    fireEvent.change(description, { target: { value: "Light *over* [the sea](https://sea.example)" } });
    fireEvent.change(screen.getByLabelText("Website"), { target: { value: "https://harbour.example" } });
    fireEvent.click(screen.getByRole("button", { name: "Save changes" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/collection/Harbour%20Lights"));
    const put = api.calls.find((c) => c.method === "PUT");
    expect(put?.body).toMatchObject({
      id: ADDRESS,
      description: {
        type: "doc",
        paragraphs: [
          {
            runs: [
              { text: "Light " },
              { text: "over", italic: true },
              { text: " " },
              { text: "the sea", link: "https://sea.example" },
            ],
          },
        ],
      },
      social: { website: "https://harbour.example" },
    });
  });
});

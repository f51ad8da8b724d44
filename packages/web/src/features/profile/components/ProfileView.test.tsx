import { BROWSE_MESSAGES } from "@easel/common";
import { fireEvent, screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import {
  ALICE,
  fakeApi,
  LOCAL_CONFIG,
  renderApp,
  SIGNED_OUT,
  sessionRoute,
  signedIn,
} from "../../../test/harness.tsx";

const BOB = "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc";

function profileBody(
  overrides: {
    isOwner?: boolean;
    isFollowing?: boolean;
    verifiedArtist?: boolean;
    followersCount?: number;
    created?: unknown[];
    collection?: unknown[];
    user?: Record<string, unknown>;
  } = {},
) {
  return {
    data: {
      user: {
        _id: "b1",
        address: BOB,
        name: "Bob Ross",
        username: "bob",
        ens: null,
        bio: "Happy little trees.",
        avatar: null,
        banner: null,
        email: null,
        social: { website: "https://bob.example", twitter: "javascript:alert(1)" },
        active: true,
        time_update: "2023-03-01T00:00:00.000Z",
        ...overrides.user,
      },
      isOwner: overrides.isOwner ?? false,
      isFollowing: overrides.isFollowing ?? false,
      verifiedArtist: overrides.verifiedArtist ?? false,
      profileOwner: { _id: "b1", address: BOB, username: "bob", name: "Bob Ross", avatar: null },
      followers: [],
      following: [],
      followersCount: overrides.followersCount ?? 0,
      followingCount: 2,
      created: overrides.created ?? [],
      collection: overrides.collection ?? [],
      collected: [],
      split: [],
    },
  };
}

describe("profile page", () => {
  it("shows the profile, only http(s) social links, tab counts and the spec's empty text", async () => {
    fakeApi({
      ...sessionRoute({ current: SIGNED_OUT }),
      "GET /api/profile": () => ({ body: profileBody() }),
    });
    await renderApp({ path: "/profile/bob" });
    expect(await screen.findByRole("heading", { level: 1, name: /Bob Ross/ })).toBeTruthy();
    expect(screen.getByText("@bob")).toBeTruthy();
    expect(screen.getByText("0x3c…93bc")).toBeTruthy();
    expect(screen.getByText("Happy little trees.")).toBeTruthy();
    expect(screen.getByText(/Joined March 2023/)).toBeTruthy();
    expect(screen.getByRole("link", { name: "Website" }).getAttribute("href")).toBe("https://bob.example");
    expect(screen.queryByRole("link", { name: "Twitter" })).toBeNull();
    expect(screen.getByTestId("following-count").textContent).toBe("2");
    fireEvent.click(screen.getByRole("tab", { name: /Split 0/ }));
    expect(
      screen.getByText("You don't have any NFTs yet. Get started by collecting your first artworks"),
    ).toBeTruthy();
    expect(screen.getByRole("link", { name: "Explore" }).getAttribute("href")).toBe("/ExploreNFTs");
    expect(screen.queryByRole("link", { name: "Create new item" })).toBeNull();
  });

  it("marks a verified artist as the API says", async () => {
    fakeApi({
      ...sessionRoute({ current: SIGNED_OUT }),
      "GET /api/profile": () => ({ body: profileBody({ verifiedArtist: true }) }),
    });
    await renderApp({ path: "/profile/bob" });
    expect(await screen.findByText("Verified artist")).toBeTruthy();
  });

  it("does not mark an account the market has not verified", async () => {
    fakeApi({
      ...sessionRoute({ current: SIGNED_OUT }),
      "GET /api/profile": () => ({ body: profileBody() }),
    });
    await renderApp({ path: "/profile/bob" });
    await screen.findByRole("heading", { level: 1, name: /Bob Ross/ });
    expect(screen.queryByText("Verified artist")).toBeNull();
  });

  it("names a profile without a name by its short address once, and gives the whole address beside it", async () => {
    fakeApi({
      ...sessionRoute({ current: SIGNED_OUT }),
      "GET /api/profile": () => ({ body: profileBody({ user: { name: null, username: null } }) }),
    });
    await renderApp({ path: `/profile/${BOB}` });
    expect(await screen.findByRole("heading", { level: 1, name: "0x3c…93bc" })).toBeTruthy();
    expect(screen.getAllByText("0x3c…93bc")).toHaveLength(1);
    expect(screen.getByText(BOB)).toBeTruthy();
  });

  it("lets a signed-in visitor follow, and shows the new count", async () => {
    let following = false;
    const api = fakeApi({
      ...sessionRoute({ current: signedIn(ALICE) }),
      "GET /api/profile": () => ({
        body: profileBody({ isFollowing: following, followersCount: following ? 1 : 0 }),
      }),
      "POST /api/profile/follow": () => {
        following = !following;
        return { body: { data: { following, followersCount: following ? 1 : 0 } } };
      },
    });
    await renderApp({ path: "/profile/bob" });
    fireEvent.click(await screen.findByRole("button", { name: "Follow" }));
    expect(await screen.findByRole("button", { name: "Following" })).toBeTruthy();
    expect(screen.getByTestId("followers-count").textContent).toBe("1");
    expect(api.calls.find((call) => call.path === "/api/profile/follow")?.body).toEqual({ userAddress: BOB });
  });

  it("shows an owner who is not a verified artist the way to become one instead of 'Create new item'", async () => {
    fakeApi({
      ...sessionRoute({ current: signedIn(BOB) }),
      "GET /api/profile": () => ({ body: profileBody({ isOwner: true }) }),
    });
    await renderApp({ path: "/profile" });
    expect((await screen.findByRole("link", { name: "Become an artist" })).getAttribute("href")).toBe(
      "/applyToJoin",
    );
    expect(screen.queryByRole("link", { name: "Create new item" })).toBeNull();
  });

  it("gives the owner Edit and the create links instead of Follow", async () => {
    const artist = signedIn(BOB);
    if (artist.profile) artist.profile.permission.mint = true;
    fakeApi({
      ...sessionRoute({ current: artist }),
      "GET /api/profile": () => ({ body: profileBody({ isOwner: true }) }),
    });
    await renderApp({ path: "/profile" });
    expect((await screen.findByRole("link", { name: "Edit Profile" })).getAttribute("href")).toBe(
      "/profile/edit/bob",
    );
    expect(screen.queryByRole("button", { name: "Follow" })).toBeNull();
    expect(screen.getByRole("link", { name: "Create new item" }).getAttribute("href")).toBe("/mint");
    fireEvent.click(screen.getByRole("tab", { name: /Collection 0/ }));
    expect(screen.getByRole("button", { name: "Create New Collection" })).toBeTruthy();
  });

  it("tells an account that is not a verified artist it cannot create a collection, before any check or wallet", async () => {
    const api = fakeApi({
      ...sessionRoute({ current: signedIn(BOB) }),
      "GET /api/profile": () => ({ body: profileBody({ isOwner: true }) }),
      "GET /api/category-web2": () => ({
        body: { data: { category_web2: [{ _id: 3, title: "Painting", retired: false }] } },
      }),
      "POST /api/collection/check_name": () => ({ body: { data: { message: "ok" } } }),
    });
    await renderApp({
      path: "/profile",
      config: { ...LOCAL_CONFIG, contracts: { factory: "0x5fbdb2315678afecb367f032d93f642f64180aa3" } },
    });
    fireEvent.click(await screen.findByRole("tab", { name: /Collection 0/ }));
    fireEvent.click(screen.getByRole("button", { name: "Create New Collection" }));
    fireEvent.change(await screen.findByLabelText("Name"), { target: { value: "Night Studies" } });
    fireEvent.change(screen.getByLabelText("Symbol"), { target: { value: "NGT" } });
    fireEvent.change(await screen.findByLabelText("Category"), { target: { value: "3" } });
    fireEvent.click(screen.getByLabelText(/I agree/));
    fireEvent.click(screen.getByRole("button", { name: "Create Collection" }));
    expect(await screen.findByText(BROWSE_MESSAGES.notArtistCollection)).toBeTruthy();
    expect(api.calls.some((call) => call.path === "/api/collection/check_name")).toBe(false);
    expect(screen.getByRole("button", { name: "Create Collection" })).toBeTruthy();
  });

  it("opens Create New Collection with the spec's rules, the lazy type only with permission", async () => {
    const artist = signedIn(BOB);
    if (artist.profile) artist.profile.permission.mint = true;
    const session = { current: artist };
    const api = fakeApi({
      ...sessionRoute(session),
      "GET /api/profile": () => ({ body: profileBody({ isOwner: true }) }),
      "GET /api/category-web2": () => ({
        body: { data: { category_web2: [{ _id: 3, title: "Painting", retired: false }] } },
      }),
      "POST /api/collection/check_name": () => ({
        status: 400,
        body: {
          error: {
            code: "name_taken",
            message: "This collection name is already taken.",
            fields: { name: "This collection name is already taken." },
          },
        },
      }),
    });
    await renderApp({
      path: "/profile",
      config: { ...LOCAL_CONFIG, contracts: { factory: "0x5fbdb2315678afecb367f032d93f642f64180aa3" } },
    });
    fireEvent.click(await screen.findByRole("tab", { name: /Collection 0/ }));
    fireEvent.click(screen.getByRole("button", { name: "Create New Collection" }));
    const create = await screen.findByRole("button", { name: "Create Collection" });
    expect(screen.queryByText("Collection Type")).toBeNull();

    fireEvent.click(create);
    expect((await screen.findAllByText("Required")).length).toBe(3); // name, symbol, terms
    expect(screen.getByText("select a category")).toBeTruthy();

    fireEvent.change(screen.getByLabelText("Name"), { target: { value: "ab" } });
    fireEvent.change(screen.getByLabelText("Symbol"), { target: { value: "TOOLONGSYM" } });
    fireEvent.click(create);
    expect(await screen.findByText("Name must be at least 3 characters.")).toBeTruthy();
    expect(screen.getByText("Symbol must be 8 characters maximum.")).toBeTruthy();

    fireEvent.change(screen.getByLabelText("Name"), { target: { value: "Ночь" } });
    fireEvent.click(create);
    expect(await screen.findByText("Please Type in English")).toBeTruthy();

    // A valid form is checked by the server before the wallet opens.
    fireEvent.change(screen.getByLabelText("Name"), { target: { value: "Night Studies" } });
    fireEvent.change(screen.getByLabelText("Symbol"), { target: { value: "NGT" } });
    fireEvent.change(await screen.findByLabelText("Category"), { target: { value: "3" } });
    fireEvent.click(screen.getByLabelText(/I agree/));
    fireEvent.click(create);
    expect((await screen.findAllByText("This collection name is already taken.")).length).toBeGreaterThan(0);
    expect(api.calls.find((call) => call.path === "/api/collection/check_name")?.body).toEqual({
      name: "Night Studies",
      symbol: "NGT",
    });
  });

  it("offers the lazy type, with a maximum supply, to accounts allowed lazy collections", async () => {
    const allowed = signedIn(BOB);
    fakeApi({
      ...sessionRoute({
        current: {
          ...allowed,
          profile: allowed.profile && {
            ...allowed.profile,
            permission: { collection: { lazyCollection: 1, lazyCollectionsLeft: 1 }, mint: false },
          },
        },
      }),
      "GET /api/profile": () => ({ body: profileBody({ isOwner: true }) }),
    });
    await renderApp({ path: "/profile" });
    fireEvent.click(await screen.findByRole("tab", { name: /Collection 0/ }));
    fireEvent.click(screen.getByRole("button", { name: "Create New Collection" }));
    fireEvent.click(await screen.findByLabelText("Lazy"));
    expect(await screen.findByLabelText("Maximum supply")).toBeTruthy();
  });

  it("stops offering the lazy type once the account's allowance is used up", async () => {
    const used = signedIn(BOB);
    fakeApi({
      ...sessionRoute({
        current: {
          ...used,
          profile: used.profile && {
            ...used.profile,
            permission: { collection: { lazyCollection: 2, lazyCollectionsLeft: 0 }, mint: false },
          },
        },
      }),
      "GET /api/profile": () => ({ body: profileBody({ isOwner: true }) }),
    });
    await renderApp({ path: "/profile" });
    fireEvent.click(await screen.findByRole("tab", { name: /Collection 0/ }));
    fireEvent.click(screen.getByRole("button", { name: "Create New Collection" }));
    await screen.findByRole("button", { name: "Create Collection" });
    expect(screen.queryByText("Collection Type")).toBeNull();
    expect(screen.queryByLabelText("Lazy")).toBeNull();
  });

  it("says in words why the server refused a lazy collection, and stops offering the type", async () => {
    const allowed = signedIn(BOB);
    const withLeft = (lazyCollectionsLeft: number) => ({
      ...allowed,
      profile: allowed.profile && {
        ...allowed.profile,
        permission: { collection: { lazyCollection: 1, lazyCollectionsLeft }, mint: true },
      },
    });
    // The session said one was left; by the time the form is sent, another tab has used it.
    const session = { current: withLeft(1) };
    const refusal = "Your account may not create lazy collections. Ask the moderators for permission.";
    const api = fakeApi({
      ...sessionRoute(session),
      "GET /api/profile": () => ({ body: profileBody({ isOwner: true }) }),
      "GET /api/category-web2": () => ({
        body: { data: { category_web2: [{ _id: 3, title: "Painting", retired: false }] } },
      }),
      "POST /api/collection/check_name": () => ({ body: { data: { message: "ok" } } }),
      "GET /api/collection/lazy-voucher": () => {
        session.current = withLeft(0);
        return { status: 403, body: { error: { code: "no_lazy_permission", message: refusal } } };
      },
    });
    await renderApp({
      path: "/profile",
      config: { ...LOCAL_CONFIG, contracts: { factory: "0x5fbdb2315678afecb367f032d93f642f64180aa3" } },
    });
    fireEvent.click(await screen.findByRole("tab", { name: /Collection 0/ }));
    fireEvent.click(screen.getByRole("button", { name: "Create New Collection" }));
    fireEvent.click(await screen.findByLabelText("Lazy"));
    fireEvent.change(screen.getByLabelText("Name"), { target: { value: "Night Studies" } });
    fireEvent.change(screen.getByLabelText("Symbol"), { target: { value: "NGT" } });
    fireEvent.change(await screen.findByLabelText("Category"), { target: { value: "3" } });
    fireEvent.click(screen.getByLabelText(/I agree/));
    fireEvent.click(screen.getByRole("button", { name: "Create Collection" }));

    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toBe(refusal);
    expect(api.calls.some((call) => call.path === "/api/collection/lazy-voucher")).toBe(true);
    // The dialog stays on the form, the session is read again and Lazy can no longer be picked.
    await waitFor(() => expect((screen.getByLabelText("Lazy") as HTMLInputElement).disabled).toBe(true));
    fireEvent.click(screen.getByLabelText("Standard"));
    await waitFor(() => expect(screen.queryByLabelText("Lazy")).toBeNull());
    expect(screen.getByRole("button", { name: "Create Collection" })).toBeTruthy();
  });

  it("lists the chain's tokens and collections in the tabs, linking to their pages", async () => {
    fakeApi({
      ...sessionRoute({ current: SIGNED_OUT }),
      "GET /api/profile": () => ({
        body: profileBody({
          created: [
            {
              _id: "0xc0:7",
              collection: { address: "0xc0", name: "Night Studies", kind: "standard" },
              tokenId: "7",
              name: "Study #7",
              creator: BOB,
              owner: BOB,
              status: "fix",
              image_cid: "bafkreiexample",
              royaltyBps: 1000,
              collaborators: [],
              price: "0.5",
              priceWei: "500000000000000000",
              lastPriceWei: null,
            },
          ],
          collection: [
            {
              _id: "0xc0",
              contract_address: "0xc0",
              name: "Night Studies",
              symbol: "NIGHT",
              kind: "standard",
              owner: BOB,
              tokensCount: 1,
              ownersCount: 1,
              floorPriceWei: null,
              volumeWei: "0",
            },
          ],
        }),
      }),
    });
    await renderApp({ path: "/profile/bob" });
    const item = await screen.findByRole("link", { name: /Study #7/ });
    expect(item.getAttribute("href")).toBe(`/${BOB}/Night%20Studies/7`);
    expect(screen.getByRole("img", { name: "Study #7" }).getAttribute("src")).toBe("/ipfs/bafkreiexample");
    expect(item.textContent).toContain("0.5 ETH");
    fireEvent.click(screen.getByRole("tab", { name: /Collection 1/ }));
    expect(screen.getByRole("link", { name: /Night Studies/ }).getAttribute("href")).toBe(
      "/collection/Night%20Studies",
    );
  });
});

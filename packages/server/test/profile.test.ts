import { MESSAGES, type ProfileResponse } from "@easel/common";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AccountsApi, expectError, startAccountsApi, type TestUser } from "./accounts-helpers.ts";

let api: AccountsApi;
let alice: TestUser;
let bob: TestUser;
beforeAll(async () => {
  api = await startAccountsApi();
  [alice, bob] = await Promise.all([api.signIn(), api.signIn()]);
});
afterAll(() => api.close());

const unique = (prefix: string) => `${prefix}_${Math.random().toString(36).slice(2, 10)}`;

describe("PUT /api/profile", () => {
  it("updates the caller's own profile and GET /api/profile finds it by username and address", async () => {
    const username = unique("alice");
    const saved = await api.call<{ message: string; data: { user: Record<string, unknown> } }>(
      "PUT",
      "/api/profile",
      {
        user: alice,
        body: {
          name: "Alice Artist",
          username,
          bio: "Painter of light.\nBased in Lisbon.",
          email: "Alice@Example.com",
          social: { twitter: "https://twitter.com/alice", website: "https://alice.art", instagram: "" },
        },
      },
    );
    expect(saved.status).toBe(200);
    // A new email gets a confirmation link before any notification mail.
    expect(saved.body.message).toBe(`Profile updated successfully. ${MESSAGES.emailConfirmSent}`);
    expect(saved.body.data.user).toMatchObject({
      username,
      name: "Alice Artist",
      email: "alice@example.com",
      emailVerified: false,
      social: { twitter: "https://twitter.com/alice", website: "https://alice.art" },
    });

    for (const key of [username.toUpperCase(), alice.address, alice.wallet.address]) {
      const page = await api.call<ProfileResponse>("GET", `/api/profile?userkey=${encodeURIComponent(key)}`);
      expect(page.status).toBe(200);
      expect(page.body.data.user).toMatchObject({
        address: alice.address,
        username,
        bio: expect.any(String),
      });
      // Only the owner sees their email.
      expect(page.body.data.user.email).toBeNull();
      expect(page.body.data.isOwner).toBe(false);
      expect(page.body.data).toMatchObject({ created: [], collection: [], collected: [], split: [] });
    }
    const own = await api.call<ProfileResponse>("GET", `/api/profile?userkey=${username}`, { user: alice });
    expect(own.body.data.isOwner).toBe(true);
    expect(own.body.data.user.email).toBe("alice@example.com");
    expect(own.body.data.user.time_update).toMatch(/^\d{4}-/);
    expect(own.body.data.profileOwner).toMatchObject({ address: alice.address, username });
  });

  it("keeps fields that are not sent and clears fields sent empty", async () => {
    await api.call("PUT", "/api/profile", { user: bob, body: { name: "Bob", bio: "First bio" } });
    const partial = await api.call<{ data: { user: { name: string; bio: string | null } } }>(
      "PUT",
      "/api/profile",
      {
        user: bob,
        body: { bio: "" },
      },
    );
    expect(partial.status).toBe(200);
    expect(partial.body.data.user).toMatchObject({ name: "Bob", bio: null });
  });

  it("refuses a username taken by someone else, ignoring case", async () => {
    const username = unique("Taken");
    expect((await api.call("PUT", "/api/profile", { user: alice, body: { username } })).status).toBe(200);
    const clash = await api.call("PUT", "/api/profile", {
      user: bob,
      body: { username: username.toLowerCase() },
    });
    expectError(clash, 400, { field: "username", message: MESSAGES.usernameTaken, code: "username_taken" });
  });

  it("gives a username to only one of two users claiming it at once", async () => {
    const [carol, dave] = await Promise.all([api.signIn(), api.signIn()]);
    const username = unique("race");
    const results = await Promise.all(
      [carol, dave].map((user) => api.call("PUT", "/api/profile", { user, body: { username } })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
    const loser = results.find((r) => r.status === 400);
    expectError(loser as { status: number; body: unknown }, 400, {
      field: "username",
      message: MESSAGES.usernameTaken,
    });
  });

  it("answers every invalid field with the spec's message", async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ name: "x".repeat(31) }, "name", MESSAGES.nameMax],
      [{ username: "u".repeat(31) }, "username", "username must be maximum 30 characters"],
      [{ bio: "b".repeat(151) }, "bio", "bio must be maximum 150 characters"],
      [{ name: "Алиса" }, "name", MESSAGES.englishOnly],
      [{ bio: "日本語" }, "bio", MESSAGES.englishOnly],
      [{ username: "has space" }, "username", MESSAGES.usernamePattern],
      [{ username: "0xabc" }, "username", MESSAGES.usernameAddressLike],
      [{ email: "not-an-email" }, "email", MESSAGES.emailInvalid],
      [{ ens: "no spaces.eth!" }, "ens", MESSAGES.ensInvalid],
      [{ social: { website: "javascript:alert(1)" } }, "social.website", MESSAGES.linkInvalid],
      [
        { social: { twitter: "data:text/html,<script>alert(1)</script>" } },
        "social.twitter",
        MESSAGES.linkInvalid,
      ],
      [{ social: { discord: "ftp://files.example" } }, "social.discord", MESSAGES.linkInvalid],
      [{ avatar: "https://evil.example/a.png" }, "avatar", MESSAGES.imagePath],
    ];
    for (const [body, field, message] of cases) {
      expectError(await api.call("PUT", "/api/profile", { user: alice, body }), 400, { field, message });
    }
    // A well-formed path to content the uploader never stored.
    const unknown = await api.call("PUT", "/api/profile", {
      user: alice,
      body: { avatar: `/ipfs/bafkrei${"a".repeat(52)}` },
    });
    expectError(unknown, 400, { field: "avatar", message: MESSAGES.imagePath });
  });

  it("stores XSS text as given and returns it only as inert JSON", async () => {
    const bio = `<script>alert("x")</script><img src=x onerror=alert(1)>`;
    const website = "https://example.com/?q=<script>alert(1)</script>";
    const saved = await api.call("PUT", "/api/profile", { user: bob, body: { bio, social: { website } } });
    expect(saved.status).toBe(200);
    const response = await fetch(`${api.url}/api/profile?userkey=${bob.address}`);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    const page = (await response.json()) as ProfileResponse;
    expect(page.data.user.bio).toBe(bio);
    expect(page.data.user.social.website).toBe(website);
  });

  it("needs a session (401) and an active profile (403)", async () => {
    expectError(await api.call("PUT", "/api/profile", { body: { name: "x" } }), 401, {
      code: "unauthenticated",
    });
    const banned = await api.signIn();
    await api.setActive(banned.address, false);
    expectError(await api.call("PUT", "/api/profile", { user: banned, body: { name: "x" } }), 403, {
      message: MESSAGES.notRegistered,
    });
  });
});

describe("GET /api/profile", () => {
  it("answers an unknown username with 404 and an address that never signed in with an empty profile", async () => {
    expectError(await api.call("GET", "/api/profile?userkey=nobody_here_42"), 404, {
      message: MESSAGES.userNotFound,
    });
    const stranger = "0x000000000000000000000000000000000000dEaD";
    const page = await api.call<ProfileResponse>("GET", `/api/profile?userkey=${stranger}`);
    expect(page.status).toBe(200);
    expect(page.body.data.user).toMatchObject({ _id: null, address: stranger.toLowerCase() });
    expect(page.body.data.followersCount).toBe(0);
  });

  it("hides a banned profile from others but not from its owner", async () => {
    const banned = await api.signIn();
    await api.setActive(banned.address, false);
    expect((await api.call("GET", `/api/profile?userkey=${banned.address}`)).status).toBe(404);
    const own = await api.call<ProfileResponse>("GET", `/api/profile?userkey=${banned.address}`, {
      user: banned,
    });
    expect(own.status).toBe(200);
    expect(own.body.data.user.active).toBe(false);
  });
});

describe("OpenAPI", () => {
  it("documents the accounts API", async () => {
    const doc = (await fetch(`${api.url}/api/docs`).then((r) => r.json())) as {
      paths: Record<string, unknown>;
    };
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        "/api/profile/",
        "/api/profile/media_uploader",
        "/api/profile/follow",
        "/api/profile/search-complete-users",
        "/api/profile/notifications",
        "/api/profile/notifications/seen",
        "/api/profile/notif_allow",
        "/api/home/header-data",
        "/api/marketing/subscribe",
        "/api/marketing/confirm",
        "/api/reports",
        "/api/contact",
        "/api/artist-applications",
        "/api/artist-applications/mine",
        "/api/admin/reports",
        "/api/admin/applications",
        "/api/admin/users",
        "/ipfs/{cid}",
      ]),
    );
  });
});

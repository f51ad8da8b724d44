import { MESSAGES, type ProfileResponse, type SessionResponse } from "@easel/common";
import { and, count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { follows } from "../src/db/schema.ts";
import { type AccountsApi, expectError, startAccountsApi, type TestUser } from "./accounts-helpers.ts";

let api: AccountsApi;
beforeAll(async () => {
  api = await startAccountsApi();
});
afterAll(() => api.close());

type FollowBody = { data: { following: boolean; followersCount: number } };
type NotificationsBody = {
  data: {
    notificationsTemp: { _id: string; message: string; time: number; seen: boolean; kind: string }[];
    numberOfNewNotif: number;
  };
};
type HeaderBody = { data: { user: { address: string } | null; numberOfNewNotif: number; isAdmin: boolean } };

const follow = (user: TestUser, target: TestUser | string) =>
  api.call<FollowBody>("POST", "/api/profile/follow", {
    user,
    body: { userAddress: typeof target === "string" ? target : target.wallet.address },
  });

const pairRows = async (a: TestUser, b: TestUser) =>
  (
    await api.db
      .select({ n: count() })
      .from(follows)
      .where(and(eq(follows.follower, a.address), eq(follows.followee, b.address)))
  )[0]?.n;

describe("POST /api/profile/follow", () => {
  it("toggles following, updates both sides' counts and notifies the followed user", async () => {
    const [alice, bob] = await Promise.all([api.signIn(), api.signIn()]);
    await api.call("PUT", "/api/profile", {
      user: alice,
      body: { username: `al_${alice.address.slice(2, 10)}` },
    });
    const first = await follow(alice, bob);
    expect(first.status).toBe(200);
    expect(first.body.data).toEqual({ following: true, followersCount: 1 });

    const bobPage = await api.call<ProfileResponse>("GET", `/api/profile?userkey=${bob.address}`, {
      user: alice,
    });
    expect(bobPage.body.data).toMatchObject({ isFollowing: true, followersCount: 1, followingCount: 0 });
    expect(bobPage.body.data.followers.map((f) => f.address)).toEqual([alice.address]);
    const alicePage = await api.call<ProfileResponse>("GET", `/api/profile?userkey=${alice.address}`);
    expect(alicePage.body.data.following.map((f) => f.address)).toEqual([bob.address]);

    const notes = await api.call<NotificationsBody>("GET", "/api/profile/notifications", { user: bob });
    expect(notes.body.data.numberOfNewNotif).toBe(1);
    expect(notes.body.data.notificationsTemp[0]).toMatchObject({
      kind: "follow",
      seen: false,
      message: `@al_${alice.address.slice(2, 10)} started following you.`,
      // A link to the new follower's profile.
      link: `/profile/${alice.address}`,
    });
    expect(notes.body.data.notificationsTemp[0]?.time).toBeGreaterThan(1_700_000_000);
    const header = await api.call<HeaderBody>("GET", "/api/home/header-data", { user: bob });
    expect(header.body.data).toMatchObject({
      user: { address: bob.address },
      numberOfNewNotif: 1,
      isAdmin: false,
    });
    const session = await api.call<SessionResponse>("GET", "/api/auth/session", { user: bob });
    expect(session.body.numberOfNewNotif).toBe(1);

    const seen = await api.call<{ data: { updated: number } }>("PUT", "/api/profile/notifications/seen", {
      user: bob,
    });
    expect(seen.body.data.updated).toBe(1);
    const after = await api.call<HeaderBody>("GET", "/api/home/header-data", { user: bob });
    expect(after.body.data.numberOfNewNotif).toBe(0);

    const second = await follow(alice, bob);
    expect(second.body.data).toEqual({ following: false, followersCount: 0 });
    expect(await pairRows(alice, bob)).toBe(0);
  });

  it("cannot follow yourself, needs a valid address, a session and an active profile", async () => {
    const me = await api.signIn();
    expectError(await follow(me, me), 400, { field: "userAddress", message: MESSAGES.followSelf });
    expectError(await follow(me, "0x1234"), 400, { field: "userAddress", message: "Invalid address" });
    // A wrong type or a missing field is an input error, not a missing user.
    for (const [body, message] of [
      [{ userAddress: 42 }, "Invalid address: userAddress must be a string"],
      [{ userAddress: [me.address] }, "Invalid address: userAddress must be a string"],
      [{}, "userAddress is required"],
    ] as const) {
      expectError(await api.call("POST", "/api/profile/follow", { user: me, body }), 400, {
        field: "userAddress",
        message,
      });
    }
    expectError(
      await api.call("POST", "/api/profile/follow", { body: { userAddress: me.wallet.address } }),
      401,
    );
    const banned = await api.signIn();
    await api.setActive(banned.address, false);
    expectError(await follow(banned, me), 403, { message: MESSAGES.notRegistered });
  });

  it("keeps a consistent state under concurrent toggles of one pair", async () => {
    const [fan, star] = await Promise.all([api.signIn(), api.signIn()]);
    // An even number of toggles at once ends not following, an odd number following: never a duplicate.
    const even = await Promise.all(Array.from({ length: 10 }, () => follow(fan, star)));
    expect(even.every((r) => r.status === 200)).toBe(true);
    expect(await pairRows(fan, star)).toBe(0);
    expect(even.filter((r) => r.body.data.following).length).toBe(5);
    const odd = await Promise.all(Array.from({ length: 7 }, () => follow(fan, star)));
    expect(odd.every((r) => r.status === 200)).toBe(true);
    expect(await pairRows(fan, star)).toBe(1);
    const page = await api.call<ProfileResponse>("GET", `/api/profile?userkey=${star.address}`);
    expect(page.body.data.followersCount).toBe(1);
  });

  it("counts every follower when many follow at once", async () => {
    const star = await api.signIn();
    const fans = await Promise.all(Array.from({ length: 8 }, () => api.signIn()));
    const results = await Promise.all(fans.map((fan) => follow(fan, star)));
    expect(results.every((r) => r.status === 200 && r.body.data.following)).toBe(true);
    const page = await api.call<ProfileResponse>("GET", `/api/profile?userkey=${star.address}`);
    expect(page.body.data.followersCount).toBe(8);
    expect(new Set(page.body.data.followers.map((f) => f.address)).size).toBe(8);
  });
});

describe("notifications and preferences", () => {
  it("needs a session", async () => {
    expectError(await api.call("GET", "/api/profile/notifications"), 401);
    expectError(await api.call("PUT", "/api/profile/notifications/seen"), 401);
    expectError(await api.call("PUT", "/api/profile/notif_allow", { body: { auction: false } }), 401);
    const anonymous = await api.call<HeaderBody>("GET", "/api/home/header-data");
    expect(anonymous.body.data).toMatchObject({ user: null, numberOfNewNotif: 0 });
  });

  it("saves flags, and a switched-off kind is no longer notified", async () => {
    const [quiet, fan] = await Promise.all([api.signIn(), api.signIn()]);
    const saved = await api.call<{ data: { notifAllow: Record<string, boolean> } }>(
      "PUT",
      "/api/profile/notif_allow",
      {
        user: quiet,
        body: { NewFollowerNotification: false, auction: false },
      },
    );
    expect(saved.status).toBe(200);
    expect(saved.body.data.notifAllow).toMatchObject({
      NewFollowerNotification: false,
      auction: false,
      itemSold: true,
      email: false,
    });
    // A second save merges with the first.
    const merged = await api.call<{ data: { notifAllow: Record<string, boolean> } }>(
      "PUT",
      "/api/profile/notif_allow",
      {
        user: quiet,
        body: { auction: true },
      },
    );
    expect(merged.body.data.notifAllow).toMatchObject({ NewFollowerNotification: false, auction: true });
    await follow(fan, quiet);
    const notes = await api.call<NotificationsBody>("GET", "/api/profile/notifications", { user: quiet });
    expect(notes.body.data.notificationsTemp).toEqual([]);
  });

  it("takes the spec's form fields (auction, fix, offer, profile, favorite) and ens; a group switched off silences its kinds", async () => {
    const [quiet, fan] = await Promise.all([api.signIn(), api.signIn()]);
    const body = { fix: false, offer: true, profile: false, favorite: true, ens: true, auction: true };
    const saved = await api.call<{ data: { notifAllow: Record<string, boolean> } }>(
      "PUT",
      "/api/profile/notif_allow",
      { user: quiet, body },
    );
    expect(saved.status).toBe(200);
    expect(saved.body.data.notifAllow).toMatchObject({ ...body, NewFollowerNotification: true });
    // New followers belong to the profile group: off, though their own flag is on.
    await follow(fan, quiet);
    const notes = await api.call<NotificationsBody>("GET", "/api/profile/notifications", { user: quiet });
    expect(notes.body.data.notificationsTemp).toEqual([]);
    await api.call("PUT", "/api/profile/notif_allow", { user: quiet, body: { profile: true } });
    await follow(fan, quiet);
    await follow(fan, quiet);
    const after = await api.call<NotificationsBody>("GET", "/api/profile/notifications", { user: quiet });
    expect(after.body.data.notificationsTemp).toHaveLength(1);
  });

  it("refuses unknown flags and non-boolean values", async () => {
    const user = await api.signIn();
    expectError(await api.call("PUT", "/api/profile/notif_allow", { user, body: { auction: "yes" } }), 400, {
      field: "auction",
    });
    expect((await api.call("PUT", "/api/profile/notif_allow", { user, body: { hacker: true } })).status).toBe(
      400,
    );
  });

  it("mails a notification to users who turned on email notifications, once they confirmed the address", async () => {
    const [reader, fan, secondFan] = await Promise.all([api.signIn(), api.signIn(), api.signIn()]);
    const email = `reader-${reader.address.slice(2, 10)}@example.com`;
    await api.call("PUT", "/api/profile", { user: reader, body: { email } });
    await api.call("PUT", "/api/profile/notif_allow", { user: reader, body: { email: true } });
    const confirmation = await api.waitForMail(email, /Confirm your email/);
    // Before the address is confirmed, notifications are written but not mailed.
    await follow(fan, reader);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(api.mails().filter((m) => m.text.includes(`To: ${email}`))).toHaveLength(1);

    // The link's page posts its values when its button is pressed.
    const link = confirmation.text.match(/http:\/\/127\.0\.0\.1:3000\/email\/confirm\?\S+/)?.[0];
    const values = Object.fromEntries(new URL(link as string).searchParams);
    expect((await api.call("POST", "/api/profile/email/confirm", { body: values })).status).toBe(200);
    await follow(secondFan, reader);
    const mail = await api.waitForMail(email, /started following you/);
    expect(mail.text).toContain("Subject: Easel: new notification");
  });
});

describe("GET /api/profile/search-complete-users", () => {
  it("finds users by address prefix or username prefix", async () => {
    const user = await api.signIn();
    const username = `zed_${user.address.slice(2, 8)}`;
    await api.call("PUT", "/api/profile", { user, body: { username } });
    type Users = {
      data: { users: { _id: string; username: string | null; address: string; avatar: string | null }[] };
    };
    const byName = await api.call<Users>(
      "GET",
      `/api/profile/search-complete-users?userKey=ZED_${user.address.slice(2, 6)}`,
    );
    expect(byName.body.data.users.map((u) => u.address)).toContain(user.address);
    const byAddress = await api.call<Users>(
      "GET",
      `/api/profile/search-complete-users?userKey=${user.wallet.address.slice(0, 12)}`,
    );
    expect(byAddress.body.data.users).toEqual([
      { _id: expect.any(String), username, avatar: null, address: user.address },
    ]);
    const wildcard = await api.call<Users>("GET", "/api/profile/search-complete-users?userKey=%25");
    expect(wildcard.body.data.users).toEqual([]);
    const empty = await api.call<Users>("GET", "/api/profile/search-complete-users?userKey=");
    expect(empty.body.data.users).toEqual([]);
  });
});

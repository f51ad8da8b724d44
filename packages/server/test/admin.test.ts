import { MESSAGES } from "@easel/common";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { profiles } from "../src/db/schema.ts";
import { type AccountsApi, expectError, startAccountsApi, type TestUser } from "./accounts-helpers.ts";

let api: AccountsApi;
let admin: TestUser;
let user: TestUser;
beforeAll(async () => {
  api = await startAccountsApi();
  [admin, user] = await Promise.all([api.admin(), api.signIn()]);
});
afterAll(() => api.close());

const application = {
  profileURL: "https://easel.example/profile/x",
  name: "Xavier",
  email: "xavier@example.com",
  phone: "+44 20 7946 0958",
  role: "artistFoundation",
  rights: true,
  terms: true,
};
const ZERO_ID = "00000000-0000-4000-8000-000000000000";

describe("admin API", () => {
  it("answers 401 when signed out and 403 to non-admins on every route", async () => {
    const routes: [string, string, unknown?][] = [
      ["GET", "/api/admin/reports"],
      ["PUT", `/api/admin/reports/${ZERO_ID}`, { status: "resolved" }],
      ["GET", "/api/admin/applications"],
      ["POST", `/api/admin/applications/${ZERO_ID}/approve`],
      ["POST", `/api/admin/applications/${ZERO_ID}/reject`],
      ["GET", "/api/admin/users"],
      ["POST", `/api/admin/users/${user.address}/ban`],
      ["POST", `/api/admin/users/${user.address}/unban`],
    ];
    for (const [method, path, body] of routes) {
      expectError(await api.call(method, path, { body }), 401);
      expectError(await api.call(method, path, { body, user }), 403, { message: MESSAGES.adminOnly });
    }
    const header = await api.call<{ data: { isAdmin: boolean } }>("GET", "/api/home/header-data", {
      user: admin,
    });
    expect(header.body.data.isAdmin).toBe(true);
  });

  it("lists open reports and closes them", async () => {
    // The reporter and the reported user come named as everywhere (name, else ENS, else address).
    const target = (await api.signIn()).address;
    await api.db.update(profiles).set({ name: "Rita Reporter" }).where(eq(profiles.address, user.address));
    await api.db.update(profiles).set({ ens: "target.eth" }).where(eq(profiles.address, target));
    const sent = await api.call<{ data: { _id: string } }>("POST", "/api/reports", {
      user,
      body: {
        reason: "Hateful or Abusive Content",
        email: "r@example.com",
        description: "Abusive words in the bio.",
        targetType: "profile",
        targetId: target,
      },
    });
    type Reports = { data: { reports: { _id: string; status: string; reporter: string }[] } };
    const open = await api.call<Reports>("GET", "/api/admin/reports", { user: admin });
    expect(open.body.data.reports.find((r) => r._id === sent.body.data._id)).toMatchObject({
      status: "open",
      reporter: user.address,
      reporterPerson: { address: user.address, name: "Rita Reporter", username: null, ens: null },
      targetPerson: { address: target, name: null, username: null, ens: "target.eth" },
    });
    const closed = await api.call<{ data: { report: { status: string; reviewedBy: string } } }>(
      "PUT",
      `/api/admin/reports/${sent.body.data._id}`,
      { user: admin, body: { status: "resolved" } },
    );
    expect(closed.body.data.report).toMatchObject({
      status: "resolved",
      reviewedBy: admin.address,
      reporterPerson: { name: "Rita Reporter" },
    });
    const after = await api.call<Reports>("GET", "/api/admin/reports", { user: admin });
    expect(after.body.data.reports.some((r) => r._id === sent.body.data._id)).toBe(false);
    expectError(
      await api.call("PUT", `/api/admin/reports/${ZERO_ID}`, { user: admin, body: { status: "resolved" } }),
      404,
    );
    expectError(
      await api.call("PUT", `/api/admin/reports/${sent.body.data._id}`, {
        user: admin,
        body: { status: "open" },
      }),
      400,
      { field: "status" },
    );
  });

  it("approves and rejects artist applications and tells the applicant", async () => {
    const [applicant, other] = await Promise.all([api.signIn(), api.signIn()]);
    type App = { data: { application: { _id: string; status: string; reviewedBy: string | null } } };
    const mine = await api.call<App>("POST", "/api/artist-applications", {
      user: applicant,
      body: application,
    });
    const theirs = await api.call<App>("POST", "/api/artist-applications", {
      user: other,
      body: application,
    });
    type Apps = { data: { applications: { _id: string }[] } };
    const pending = await api.call<Apps>("GET", "/api/admin/applications", { user: admin });
    const ids = pending.body.data.applications.map((a) => a._id);
    expect(ids).toEqual(
      expect.arrayContaining([mine.body.data.application._id, theirs.body.data.application._id]),
    );

    const approved = await api.call<App>(
      "POST",
      `/api/admin/applications/${mine.body.data.application._id}/approve`,
      {
        user: admin,
      },
    );
    expect(approved.body.data.application).toMatchObject({ status: "approved", reviewedBy: admin.address });
    const rejected = await api.call<App>(
      "POST",
      `/api/admin/applications/${theirs.body.data.application._id}/reject`,
      {
        user: admin,
      },
    );
    expect(rejected.body.data.application.status).toBe("rejected");

    const view = await api.call<App>("GET", "/api/artist-applications/mine", { user: applicant });
    expect(view.body.data.application.status).toBe("approved");
    type Notes = { data: { notificationsTemp: { kind: string }[] } };
    const notes = await api.call<Notes>("GET", "/api/profile/notifications", { user: applicant });
    expect(notes.body.data.notificationsTemp.map((n) => n.kind)).toContain("application_approved");
    // An approved artist cannot reopen the application; a rejected one may apply again.
    expectError(
      await api.call("POST", "/api/artist-applications", { user: applicant, body: application }),
      400,
      {
        message: MESSAGES.applicationAlreadyApproved,
      },
    );
    const again = await api.call<App>("POST", "/api/artist-applications", { user: other, body: application });
    expect(again.body.data.application.status).toBe("pending");
    expectError(await api.call("POST", `/api/admin/applications/${ZERO_ID}/approve`, { user: admin }), 404);
  });

  it("bans and unbans users, who then cannot change anything until unbanned", async () => {
    const target = await api.signIn();
    type Users = { data: { users: { address: string; active: boolean }[]; lastPage: boolean } };
    const list = await api.call<Users>("GET", `/api/admin/users?q=${target.address.slice(0, 14)}`, {
      user: admin,
    });
    expect(list.body.data.users).toEqual([
      expect.objectContaining({ address: target.address, active: true }),
    ]);

    const banned = await api.call<{ data: { user: { active: boolean } } }>(
      "POST",
      `/api/admin/users/${target.wallet.address}/ban`,
      { user: admin },
    );
    expect(banned.body.data.user.active).toBe(false);
    // The ban ended their session; signed in again, they are refused every change.
    expectError(await api.call("PUT", "/api/profile", { user: target, body: { name: "x" } }), 401);
    const back = await api.signIn(target.wallet);
    expectError(await api.call("PUT", "/api/profile", { user: back, body: { name: "x" } }), 403, {
      message: MESSAGES.notRegistered,
    });
    const header = await api.call<{ data: { user: { active: boolean } } }>("GET", "/api/home/header-data", {
      user: back,
    });
    expect(header.body.data.user.active).toBe(false);

    await api.call("POST", `/api/admin/users/${target.address}/unban`, { user: admin });
    expect((await api.call("PUT", "/api/profile", { user: back, body: { name: "Back" } })).status).toBe(200);

    expectError(await api.call("POST", `/api/admin/users/${admin.address}/ban`, { user: admin }), 400);
    expectError(
      await api.call("POST", "/api/admin/users/0x0000000000000000000000000000000000000001/ban", {
        user: admin,
      }),
      404,
    );
  });
});

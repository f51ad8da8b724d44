import { MESSAGES } from "@easel/common";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { artistApplications, contactMessages, newsletterSubscriptions, reports } from "../src/db/schema.ts";
import { type AccountsApi, expectError, startAccountsApi } from "./accounts-helpers.ts";

let api: AccountsApi;
beforeAll(async () => {
  api = await startAccountsApi();
});
afterAll(() => api.close());

const subscription = async (email: string) =>
  (await api.db.select().from(newsletterSubscriptions).where(eq(newsletterSubscriptions.email, email)))[0];

describe("newsletter (double opt-in)", () => {
  it("mails a link to a page whose button confirms the address; opening the link alone does not", async () => {
    const email = `fan-${Date.now()}@example.com`;
    const result = await api.call<{ message: string }>("POST", "/api/marketing/subscribe", {
      body: { email: email.toUpperCase() },
    });
    expect(result.status).toBe(200);
    expect(result.body.message).toBe(
      "Thanks for Subscribing. Please check your email to confirm your subscription.",
    );
    expect((await subscription(email))?.confirmedAt).toBeNull();

    const mail = await api.waitForMail(email, /confirm/i);
    const link = mail.text.match(/http:\/\/127\.0\.0\.1:3000\/newsletter\/confirm\?\S+/)?.[0];
    expect(link, "the mail links the confirmation page").toBeTruthy();
    const values = Object.fromEntries(new URL(link as string).searchParams);
    const confirm = (body: Record<string, unknown>) => api.call("POST", "/api/marketing/confirm", { body });

    // Opening a link (as mail scanners do) confirms nothing: an old API link only leads to the page.
    const opened = await api.call("GET", `/api/marketing/confirm?${new URL(link as string).search.slice(1)}`);
    expect(opened.status).toBe(303);
    expect(opened.headers.get("location")).toBe(`/newsletter/confirm${new URL(link as string).search}`);
    expect((await subscription(email))?.confirmedAt).toBeNull();

    // The page's button posts the link's values; a tampered, cut or foreign one confirms nothing.
    expectError(await confirm({ ...values, sig: "AAAA" }), 400, { message: MESSAGES.newsletterLinkInvalid });
    expectError(await confirm({ ...values, email: "other@example.com" }), 400, {
      message: MESSAGES.newsletterLinkInvalid,
    });
    expectError(await confirm({ email: values.email }), 400, { message: MESSAGES.newsletterLinkIncomplete });
    expect((await subscription(email))?.confirmedAt).toBeNull();

    const confirmed = await confirm(values);
    expect(confirmed.status).toBe(200);
    expect((confirmed.body as { message: string }).message).toBe(MESSAGES.newsletterConfirmed);
    expect((await subscription(email))?.confirmedAt).toBeInstanceOf(Date);
    // Twice is fine.
    expect((await confirm(values)).status).toBe(200);

    // Subscribing a confirmed address again is not an error and sends no more mail.
    const before = api.mails().length;
    const twice = await api.call("POST", "/api/marketing/subscribe", { body: { email } });
    expect(twice.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(api.mails().length).toBe(before);
  });

  it("refuses an expired link", async () => {
    const email = `late-${Date.now()}@example.com`;
    await api.call("POST", "/api/marketing/subscribe", { body: { email } });
    const mail = await api.waitForMail(email);
    const link = mail.text.match(/http:\/\/\S+\/newsletter\/confirm\?\S+/)?.[0] ?? "";
    const values = Object.fromEntries(new URL(link).searchParams);
    expectError(
      await api.call("POST", "/api/marketing/confirm", { body: { ...values, expires: "1000" } }),
      400,
      { message: MESSAGES.newsletterLinkInvalid },
    );
    expect((await subscription(email))?.confirmedAt).toBeNull();
  });

  it("answers bad addresses with the spec's messages", async () => {
    expectError(await api.call("POST", "/api/marketing/subscribe", { body: {} }), 400, {
      field: "email",
      message: "Required",
    });
    expectError(await api.call("POST", "/api/marketing/subscribe", { body: { email: "" } }), 400, {
      field: "email",
      message: "Required",
    });
    expectError(await api.call("POST", "/api/marketing/subscribe", { body: { email: "nope@" } }), 400, {
      field: "email",
      message: "invalid email address",
    });
  });
});

describe("POST /api/reports", () => {
  const valid = {
    reason: "Counterfeit Artwork",
    email: "reporter@example.com",
    description: "This item copies a painting by another artist.",
    targetType: "profile",
    // A member's profile (reports name things that exist): set once a member has signed in.
    targetId: "",
  };
  beforeAll(async () => {
    valid.targetId = (await api.signIn()).address;
  });

  it("stores the report and answers with the spec's success text", async () => {
    const user = await api.signIn();
    const result = await api.call<{ message: string; data: { _id: string } }>("POST", "/api/reports", {
      user,
      body: valid,
    });
    expect(result.status).toBe(200);
    expect(result.body.message).toBe(
      "Your report has been registered. We will follow and check it and take the necessary action.",
    );
    const [row] = await api.db.select().from(reports).where(eq(reports.id, result.body.data._id));
    expect(row).toMatchObject({ reporter: user.address, reason: "Counterfeit Artwork", status: "open" });
  });

  it("answers each invalid field with the spec's message", async () => {
    const user = await api.signIn();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ reason: undefined }, "reason", "Please, select a reason."],
      [{ reason: "Because" }, "reason", "Please, select a reason."],
      [{ email: undefined }, "email", "Email is required."],
      [{ email: "" }, "email", "Email is required."],
      [{ email: "x@y" }, "email", "Invalid email address"],
      [{ description: undefined }, "description", "Description is required"],
      [{ description: "" }, "description", "Description is required"],
      [{ description: "too short" }, "description", "description must be at least 10 characters."],
      [{ description: "d".repeat(501) }, "description", "description must be 500 characters maximum."],
      [{ targetType: "planet" }, "targetType", MESSAGES.reportTarget],
    ];
    for (const [change, field, message] of cases) {
      expectError(await api.call("POST", "/api/reports", { user, body: { ...valid, ...change } }), 400, {
        field,
        message,
      });
    }
    // Exactly 10 and 500 characters are fine.
    for (const description of ["d".repeat(10), "d".repeat(500)]) {
      expect((await api.call("POST", "/api/reports", { user, body: { ...valid, description } })).status).toBe(
        200,
      );
    }
  });

  it("takes a report of an item from its owner (the item menu offers its owner Report)", async () => {
    const user = await api.signIn();
    const collection = `0x${"cd".repeat(20)}`;
    await api.db.execute(sql`
      INSERT INTO chain_tokens (collection, token_id, owner, holder, status, minted_block, minted_at, mint_tx,
        updated_block)
      VALUES (${collection}, 7, ${user.address}, ${user.address}, 'minted', 1, now(), '0x', 1)`);
    const result = await api.call("POST", "/api/reports", {
      user,
      body: { ...valid, targetType: "item", targetId: `${collection}:7` },
    });
    expect(result.status).toBe(200);
    const [stored] = await api.db.select().from(reports).where(eq(reports.reporter, user.address));
    expect(stored).toMatchObject({ targetType: "item", targetId: `${collection}:7` });
  });

  it("refuses a report of oneself, or of something that does not exist", async () => {
    const user = await api.signIn();
    expectError(
      await api.call("POST", "/api/reports", { user, body: { ...valid, targetId: user.address } }),
      400,
      { field: "targetId", message: MESSAGES.reportOwn },
    );
    const nobody = `0x${"ab".repeat(20)}`;
    expectError(await api.call("POST", "/api/reports", { user, body: { ...valid, targetId: nobody } }), 400, {
      field: "targetId",
      message: MESSAGES.reportTarget,
    });
    const [stored] = await api.db.select().from(reports).where(eq(reports.reporter, user.address));
    expect(stored).toBeUndefined();
  });

  it("needs a session and an active profile", async () => {
    expectError(await api.call("POST", "/api/reports", { body: valid }), 401);
    const banned = await api.signIn();
    await api.setActive(banned.address, false);
    expectError(await api.call("POST", "/api/reports", { user: banned, body: valid }), 403);
  });
});

describe("POST /api/contact", () => {
  it("stores the message and mails it to the operators", async () => {
    const name = `Carla ${Date.now()}`;
    const result = await api.call<{ message: string }>("POST", "/api/contact", {
      body: { name, email: "carla@example.com", message: "I would like to exhibit with you." },
    });
    expect(result.status).toBe(200);
    const [row] = await api.db.select().from(contactMessages).where(eq(contactMessages.name, name));
    expect(row).toMatchObject({ email: "carla@example.com", address: null });
    const mail = await api.waitForMail("ops@easel.test", new RegExp(name));
    expect(mail.text).toContain("I would like to exhibit with you.");
  });

  it("answers each invalid field", async () => {
    const body = { name: "Carla", email: "carla@example.com", message: "Hello" };
    expectError(await api.call("POST", "/api/contact", { body: { ...body, name: "Al" } }), 400, {
      field: "name",
      message: "Name must be atleast 3 characters",
    });
    expectError(await api.call("POST", "/api/contact", { body: { ...body, email: "" } }), 400, {
      field: "email",
      message: "Email is required.",
    });
    expectError(await api.call("POST", "/api/contact", { body: { ...body, message: " " } }), 400, {
      field: "message",
      message: MESSAGES.contactMessageRequired,
    });
  });
});

describe("artist applications", () => {
  const valid = {
    profileURL: "https://easel.example/profile/painter",
    name: "Paula Painter",
    email: "paula@example.com",
    phone: "+351 912 345 678",
    role: "artist",
    portfolio: "https://paula.art",
    description: "Oil paintings of the Atlantic coast.",
    rights: true,
    terms: true,
  };

  it("stores a pending application, shows it to its owner and lets them edit it", async () => {
    const user = await api.signIn();
    const none = await api.call<{ data: { application: unknown } }>("GET", "/api/artist-applications/mine", {
      user,
    });
    expect(none.body.data.application).toBeNull();
    const result = await api.call<{
      message: string;
      data: { application: { status: string; _id: string } };
    }>("POST", "/api/artist-applications", { user, body: valid });
    expect(result.status).toBe(200);
    expect(result.body.message).toBe("Thank you! we will be in touch soon.");
    expect(result.body.data.application.status).toBe("pending");
    const edited = await api.call<{ data: { application: { name: string; _id: string } } }>(
      "POST",
      "/api/artist-applications",
      { user, body: { ...valid, name: "Paula P." } },
    );
    expect(edited.body.data.application).toMatchObject({
      name: "Paula P.",
      _id: result.body.data.application._id,
    });
    const rows = await api.db
      .select()
      .from(artistApplications)
      .where(eq(artistApplications.address, user.address));
    expect(rows).toHaveLength(1);
  });

  it("answers each invalid field with the spec's message", async () => {
    const user = await api.signIn();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ profileURL: "" }, "profileURL", "ProfileURL Is Required"],
      [{ profileURL: undefined }, "profileURL", "ProfileURL Is Required"],
      [{ profileURL: "javascript:alert(1)" }, "profileURL", MESSAGES.linkInvalid],
      [{ name: "" }, "name", "Name Is Required"],
      [{ name: "n".repeat(51) }, "name", "Name Must Be maximum 50 Character"],
      [{ email: "" }, "email", "Email Is Required"],
      [{ email: `${"e".repeat(40)}@example.com` }, "email", "Email Must Be maximum 50 Character"],
      [{ description: "d".repeat(1501) }, "description", "Description Must Be maximum 1500 Character"],
      [{ rights: false }, "rights", "It Is Required!"],
      [{ terms: undefined }, "terms", "It Is Required!"],
      [{ phone: "" }, "phone", "Enter your number"],
      [{ role: "" }, "role", "Select your role"],
    ];
    for (const [change, field, message] of cases) {
      expectError(
        await api.call("POST", "/api/artist-applications", { user, body: { ...valid, ...change } }),
        400,
        {
          field,
          message,
        },
      );
    }
  });

  it("needs a session", async () => {
    expectError(await api.call("POST", "/api/artist-applications", { body: valid }), 401);
    expectError(await api.call("GET", "/api/artist-applications/mine"), 401);
  });
});

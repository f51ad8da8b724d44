import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inArray } from "drizzle-orm";
import { PgBoss } from "pg-boss";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../src/config.ts";
import { createDatabase, type Database } from "../src/db/client.ts";
import { mailOutbox } from "../src/db/schema.ts";
import { MAIL_JOBS, registerMailJobs } from "../src/mail/jobs.ts";
import type { Mailer, MailMessage } from "../src/mail/mailer.ts";
import { deliverPendingMail, queueMail } from "../src/mail/outbox.ts";
import { validEnv } from "./helpers.ts";

let db: Database;
beforeAll(() => {
  db = createDatabase(validEnv().DATABASE_URL as string);
});
afterAll(() => db.$client.end());

const recorder = (fail = false) => {
  const sent: MailMessage[] = [];
  const mailer: Mailer = {
    kind: "files",
    async send(message) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      if (fail) throw new Error("SMTP is down");
      sent.push(message);
    },
  };
  return { mailer, sent };
};

describe("mail outbox", () => {
  it("sends each queued message once, even with concurrent senders", async () => {
    const tag = `outbox-${Date.now()}`;
    const messages = Array.from({ length: 12 }, (_, i) => ({
      to: `${tag}-${i}@example.com`,
      subject: tag,
      text: "hi",
    }));
    await queueMail(db, messages);
    const senders = [recorder(), recorder(), recorder()];
    await Promise.all(senders.map(({ mailer }) => deliverPendingMail(db, mailer, { limit: 5 })));
    await Promise.all(senders.map(({ mailer }) => deliverPendingMail(db, mailer, { limit: 50 })));
    const sent = senders.flatMap((s) => s.sent).filter((m) => m.subject === tag);
    expect(sent.map((m) => m.to).sort()).toEqual(messages.map((m) => m.to).sort());
  });

  it("keeps a failed message with its error and retries it after the back-off", async () => {
    const tag = `failing-${Date.now()}`;
    await queueMail(db, [{ to: `${tag}@example.com`, subject: tag, text: "hi" }]);
    const down = recorder(true);
    await deliverPendingMail(db, down.mailer, { limit: 50 });
    const [row] = await db
      .select()
      .from(mailOutbox)
      .where(inArray(mailOutbox.subject, [tag]));
    expect(row).toMatchObject({ sentAt: null, attempts: 1, lastError: "SMTP is down" });
    expect(row?.lockedUntil?.getTime()).toBeGreaterThan(Date.now());

    // Still backing off: not tried again yet.
    const up = recorder();
    await deliverPendingMail(db, up.mailer, { limit: 50 });
    expect(up.sent.some((m) => m.subject === tag)).toBe(false);
    await db
      .update(mailOutbox)
      .set({ lockedUntil: new Date(Date.now() - 1000) })
      .where(inArray(mailOutbox.subject, [tag]));
    await deliverPendingMail(db, up.mailer, { limit: 50 });
    expect(up.sent.some((m) => m.subject === tag)).toBe(true);
    const [after] = await db
      .select()
      .from(mailOutbox)
      .where(inArray(mailOutbox.subject, [tag]));
    expect(after?.sentAt).toBeInstanceOf(Date);
  });
});

describe("deliver-mail job", () => {
  it("sends queued mail from the worker's pg-boss", async () => {
    const dir = mkdtempSync(join(tmpdir(), "easel-mail-job-"));
    const config = loadConfig(validEnv({ MAIL_DIR: dir }));
    const boss = new PgBoss({ connectionString: config.databaseUrl, max: 2 });
    await boss.start();
    try {
      const to = `job-${Date.now()}@example.com`;
      await queueMail(db, [{ to, subject: "From the worker", text: "queued by the indexer" }]);
      await registerMailJobs(boss, { db, config, log: () => {} });
      await boss.send(MAIL_JOBS.deliverMail, {});
      const started = Date.now();
      let found = "";
      while (!found && Date.now() - started < 15_000) {
        for (const file of readdirSync(dir)) {
          const text = readFileSync(join(dir, file), "utf8");
          if (text.includes(`To: ${to}`)) found = text;
        }
        if (!found) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(found).toContain("queued by the indexer");
    } finally {
      await boss.stop({ graceful: false, timeout: 2000 });
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../src/config.ts";
import { configError, validEnv } from "./helpers.ts";

describe("mail and media configuration", () => {
  it("defaults media and mail folders inside DATA_DIR and derives a link secret", () => {
    const config = loadConfig(validEnv({ DATA_DIR: "/srv/easel" }));
    expect(config.mediaDir).toBe(join("/srv/easel", "ipfs"));
    expect(config.mailDir).toBe(join("/srv/easel", "mail"));
    expect(config.mailFrom).toBe("Easel <no-reply@127.0.0.1>");
    expect(config.operatorEmails).toEqual([]);
    expect(config.emailLinkSecret).toMatch(/^[0-9a-f]{64}$/);
    const other = loadConfig(validEnv({ SIGNER_PRIVATE_KEY: `0x${"11".repeat(32)}` }));
    expect(other.emailLinkSecret).not.toBe(config.emailLinkSecret);
  });

  it("reads explicit values", () => {
    const config = loadConfig(
      validEnv({
        MEDIA_DIR: "/data/media",
        MAIL_DIR: "/data/mail",
        MAIL_FROM: "Easel <hello@easel.art>",
        OPERATOR_EMAILS: "Ops@Easel.art, help@easel.art",
        EMAIL_LINK_SECRET: "s".repeat(32),
        SMTP_URL: "smtps://user:pass@mail.example:465",
      }),
    );
    expect(config).toMatchObject({
      mediaDir: "/data/media",
      mailDir: "/data/mail",
      mailFrom: "Easel <hello@easel.art>",
      operatorEmails: ["ops@easel.art", "help@easel.art"],
      emailLinkSecret: "s".repeat(32),
      smtpUrl: "smtps://user:pass@mail.example:465",
    });
  });

  it("names malformed mail settings", () => {
    const message = configError(
      validEnv({
        OPERATOR_EMAILS: "ops@easel.art, nope",
        EMAIL_LINK_SECRET: "short",
        MAIL_FROM: "no address",
      }),
    );
    expect(message).toContain("OPERATOR_EMAILS must list email addresses");
    expect(message).toContain("EMAIL_LINK_SECRET must be at least 32 characters");
    expect(message).toContain("MAIL_FROM must be an address like Easel <no-reply@easel.art>");
  });
});

import { randomUUID } from "node:crypto";
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Transporter } from "nodemailer";
import type { Config } from "../config.ts";

export type MailMessage = { to: string; subject: string; text: string };

/** Sends one message; throws when it could not. */
export type Mailer = { readonly kind: "smtp" | "files"; send(message: MailMessage): Promise<void> };

/**
 * Sends through SMTP_URL when configured; otherwise (the embedded mode) writes each message as an
 * .eml file under MAIL_DIR and logs where, so a developer can open the mail a user would receive.
 */
export function createMailer(config: Config, log: (line: string) => void): Mailer {
  // nodemailer is large and most starts send nothing: it is loaded with the first message.
  let transport: Promise<Transporter> | null = null;
  const transporter = (options: Parameters<typeof import("nodemailer").createTransport>[0]) =>
    (transport ??= import("nodemailer").then(({ default: nodemailer }) =>
      nodemailer.createTransport(options),
    ));
  const { smtpUrl } = config;
  if (smtpUrl) {
    return {
      kind: "smtp",
      async send(message) {
        await (await transporter(smtpUrl)).sendMail({ from: config.mailFrom, ...message });
      },
    };
  }
  return {
    kind: "files",
    async send(message) {
      const files = await transporter({ streamTransport: true, buffer: true, newline: "unix" });
      const info = await files.sendMail({ from: config.mailFrom, ...message });
      mkdirSync(config.mailDir, { recursive: true });
      const safeTo = message.to.replace(/[^a-zA-Z0-9@._-]/g, "_");
      const file = join(config.mailDir, `${Date.now()}-${safeTo}-${randomUUID().slice(0, 8)}.eml`);
      // Written beside and renamed into place, so a reader never sees half a message.
      writeFileSync(`${file}.tmp`, info.message as Buffer);
      renameSync(`${file}.tmp`, file);
      log(`mail to ${message.to} ("${message.subject}") written to ${file}`);
    },
  };
}

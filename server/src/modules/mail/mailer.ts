import type { FastifyBaseLogger } from "fastify";
import nodemailer from "nodemailer";
import type { Config } from "../../config.js";
import type { Db } from "../../db/client.js";
import { JobFailed } from "../../jobs/runner.js";
import { insertOutboxMail } from "./queries.js";

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** Where mail goes: an SMTP server, the dev outbox, or nowhere (production without SMTP_URL). */
export type MailMode = "smtp" | "outbox" | "none";

export interface Mailer {
  readonly mode: MailMode;
  /** Sends one mail; throws when the SMTP server refuses or cannot be reached (the job retries). */
  send(mail: Mail): Promise<void>;
  close(): void;
}

/**
 * The app's mailer, from SMTP_URL and MAIL_FROM.
 *
 * Without SMTP_URL in production the server still starts (with a warning): the product's core
 * (tickets, connections) must not go down over a missing mail setting, and refusing to start would
 * take a running deployment down at its next upgrade. Every mail then fails for good (JobFailed:
 * the job row says why), so nothing pretends a code was sent; an invited admin can ask for a reset
 * once SMTP_URL is set.
 */
export function createMailer(deps: { config: Config; db: Db; log: FastifyBaseLogger }): Mailer {
  const { config, db, log } = deps;
  const from = config.MAIL_FROM;
  if (config.SMTP_URL) {
    const transport = nodemailer.createTransport(config.SMTP_URL);
    return {
      mode: "smtp",
      async send(mail) {
        await transport.sendMail({ from, ...mail });
        log.info({ to: mail.to, subject: mail.subject }, "mail sent");
      },
      close: () => transport.close(),
    };
  }
  if (config.NODE_ENV === "production") {
    log.warn("SMTP_URL is not set: password reset and invitation mails cannot be sent");
    return {
      mode: "none",
      async send(mail) {
        log.warn({ to: mail.to, subject: mail.subject }, "mail not sent: SMTP_URL is not set");
        throw new JobFailed("SMTP_URL is not set");
      },
      close: () => undefined,
    };
  }
  return {
    mode: "outbox",
    async send(mail) {
      await insertOutboxMail(db, mail);
      // The body holds the code: it stays in the outbox (for the super user), never in the log.
      log.info({ to: mail.to, subject: mail.subject }, "mail kept in the dev outbox (no SMTP_URL)");
    },
    close: () => undefined,
  };
}

import crypto from "node:crypto";
import { INVITE_CODE_HOURS, RESET_CODE_MINUTES } from "@atende/contracts";
import type { Config } from "../../config.js";
import type { Db } from "../../db/client.js";
import type { Follower } from "../../events/bus.js";
import type { TokenService } from "../../http/tokens.js";
import { type JobHandler, type JobRunner, enqueueJob } from "../../jobs/runner.js";
import type { Mailer } from "../mail/mailer.js";
import { codeMail } from "../mail/templates.js";
import { findUserForLogin, findUserRow } from "../users/queries.js";
import { replaceCode } from "./queries.js";

export const ACCOUNT_CODE_MAIL_JOB = "account-code-mail";

/** The stored form of a user's code: keyed with the server's secret, bound to the user. */
export function codeHash(tokens: Pick<TokenService, "keyedHash">, userId: number, code: string): string {
  return tokens.keyedHash(`account-code:${userId}`, code);
}

/** Where the web app is, for the link in the mail: the front end's origin, this server, or localhost. */
export function webUrlOf(config: Pick<Config, "corsOrigins" | "PUBLIC_URL" | "PORT">): string {
  return config.corsOrigins[0] || config.PUBLIC_URL || `http://localhost:${config.PORT}`;
}

/**
 * The invitation of a new user without a password (a new company's first admin): a follower of
 * `user.invited`, so the mail's job exists exactly when the user does.
 */
export function inviteWithin(poke: () => void): Follower {
  return async (tx, events) => {
    let queued = false;
    for (const event of events) {
      if (event.type !== "user.invited") continue;
      await enqueueJob(tx, {
        type: ACCOUNT_CODE_MAIL_JOB,
        companyId: event.companyId,
        payload: { purpose: "invite", userId: event.userId, lang: "pt" },
        maxAttempts: MAIL_ATTEMPTS,
      });
      queued = true;
    }
    return queued ? poke : undefined;
  };
}

/** SMTP trouble is retried with the runner's backoff (2 s doubling to 5 min): about 8 minutes. */
export const MAIL_ATTEMPTS = 8;

/**
 * Makes the code and sends its mail. The code is made here, not when asked for: it never sits in
 * plain text in the jobs table, and a retry after an SMTP failure makes a new one (the old one was
 * never delivered, and the new one replaces it). A reset for an e-mail without an account ends here,
 * silently: the caller was answered the same either way.
 */
export function accountCodeMailJob(deps: {
  db: Db;
  tokens: Pick<TokenService, "keyedHash">;
  config: Config;
  now: () => Date;
  mailer: Mailer;
}): JobHandler<typeof ACCOUNT_CODE_MAIL_JOB> {
  const { db, tokens, config, now, mailer } = deps;
  return {
    async run(job) {
      const p = job.payload;
      const user =
        p.purpose === "reset"
          ? await findUserForLogin(db, p.email)
          : job.companyId
            ? await findUserRow(db, job.companyId, p.userId)
            : null;
      if (!user) return;
      const code = String(crypto.randomInt(0, 1_000_000)).padStart(6, "0");
      const at = now();
      const life = p.purpose === "reset" ? RESET_CODE_MINUTES * 60_000 : INVITE_CODE_HOURS * 3_600_000;
      await replaceCode(db, {
        companyId: user.companyId,
        userId: user.id,
        purpose: p.purpose,
        codeHash: codeHash(tokens, user.id, code),
        expiresAt: new Date(at.getTime() + life),
        createdAt: at,
      });
      await mailer.send(
        codeMail(p.purpose, p.lang, { to: user.email, name: user.name, code, webUrl: webUrlOf(config) }),
      );
    },
  };
}

/** The account mails' durable job: the code of an invitation or a password reset, mailed once. */
export function registerAccountMailJobs(
  jobs: Pick<JobRunner, "register">,
  deps: Parameters<typeof accountCodeMailJob>[0],
) {
  jobs.register(ACCOUNT_CODE_MAIL_JOB, accountCodeMailJob(deps));
}

import crypto from "node:crypto";
import type { Lang, ResetPasswordInput } from "@atende/contracts";
import type { Deps } from "../../deps.js";
import { inTransaction } from "../../events/bus.js";
import { AppError } from "../../http/errors.js";
import { limiterStore } from "../../http/rateLimit.js";
import type { JobRunner } from "../../jobs/runner.js";
import { enqueueJob } from "../../jobs/runner.js";
import { hashPassword } from "../../lib/passwords.js";
import { endSessionsForNewPassword } from "../sessions/passwordChange.js";
import { findUserForLogin, updateUser } from "../users/queries.js";
import { ACCOUNT_CODE_MAIL_JOB, MAIL_ATTEMPTS, codeHash } from "./codeMail.js";
import { claimAttempt, markUsed } from "./queries.js";

/**
 * Per e-mail, whoever asks (the routes limit per address): codes mailed to one address, and reset
 * tries on one address, per window. Counted for any e-mail, known or not.
 */
export const RESET_LIMITS = {
  codesPerEmail: { max: 5, windowSeconds: 900 },
  triesPerEmail: { max: 10, windowSeconds: 900 },
  /** The routes' declared per-address limits. */
  codesPerIp: { max: 10, windowSeconds: 900 },
  triesPerIp: { max: 20, windowSeconds: 900 },
} as const;

type ResetDeps = Pick<Deps, "db" | "bus" | "tokens" | "config" | "now"> & { jobs: Pick<JobRunner, "poke"> };

const equalHex = (a: string, b: string) =>
  a.length === b.length && crypto.timingSafeEqual(Buffer.from(a, "hex"), Buffer.from(b, "hex"));

export function createPasswordResetService({ db, bus, tokens, config, now, jobs }: ResetDeps) {
  const store = limiterStore(config, db, () => now().getTime());
  const codesPerEmail = store.limiter(
    "reset-codes",
    RESET_LIMITS.codesPerEmail.max,
    RESET_LIMITS.codesPerEmail.windowSeconds * 1000,
  );
  const triesPerEmail = store.limiter(
    "reset-tries",
    RESET_LIMITS.triesPerEmail.max,
    RESET_LIMITS.triesPerEmail.windowSeconds * 1000,
  );

  async function count(limiter: typeof codesPerEmail, email: string) {
    const key = `email:${email}`;
    const wait = await limiter.blockedFor(key);
    if (wait > 0) throw new AppError("ERR_TOO_MANY_REQUESTS", { retryAfter: wait });
    await limiter.hit(key);
  }

  return {
    /**
     * Step 1. An unknown e-mail is answered exactly as a known one, in the same time: the request
     * only queues the mail's job (one insert, whatever the e-mail), and the job looks the account up
     * later. Answering 404 'Email não encontrado', as the old client expected, would let anyone test
     * which addresses have an account here (and so which companies use the product); the owner of a
     * real address still learns the truth from their mailbox.
     */
    async requestCode(email: string, lang: Lang): Promise<void> {
      await count(codesPerEmail, email);
      await enqueueJob(db, {
        type: ACCOUNT_CODE_MAIL_JOB,
        payload: { purpose: "reset", email, lang },
        maxAttempts: MAIL_ATTEMPTS,
      });
      jobs.poke();
    },

    /**
     * Step 2: the code from the mail (a reset's or an invitation's) sets the new password and ends
     * every session of the user. A wrong, expired, used or exhausted code, and an e-mail without an
     * account, all answer ERR_INVALID_RESET_CODE after the same statements, so the answer tells
     * nothing about who has an account.
     */
    async reset(input: ResetPasswordInput): Promise<void> {
      await count(triesPerEmail, input.email);
      const user = await findUserForLogin(db, input.email);
      // An unknown e-mail counts a try on no row (user id 0): the same statement as a known one.
      const userId = user?.id ?? 0;
      const hash = codeHash(tokens, userId, input.token);
      const row = await claimAttempt(db, userId, now());
      if (!user || !row || !equalHex(row.codeHash, hash)) throw new AppError("ERR_INVALID_RESET_CODE");
      const passwordHash = await hashPassword(input.newPassword);
      await inTransaction(db, bus, async (tx, raise) => {
        const at = now();
        // Two requests with the one code: only the first sets a password.
        if (!(await markUsed(tx, user.companyId, row.id, at))) throw new AppError("ERR_INVALID_RESET_CODE");
        await updateUser(tx, user.companyId, user.id, { passwordHash, updatedAt: at });
        await endSessionsForNewPassword(
          tx,
          raise,
          { companyId: user.companyId, userId: user.id },
          at,
          config.REFRESH_TOKEN_DAYS,
        );
      });
    },

    close: () => store.close(),
  };
}

export type PasswordResetService = ReturnType<typeof createPasswordResetService>;

import crypto from "node:crypto";
import {
  type Actor,
  type LoginAnswer,
  type LoginInput,
  type Permission,
  PERMISSIONS,
  type SessionUserDTO,
  can,
} from "@atende/contracts";
import type { Executor } from "../../db/client.js";
import type { Deps } from "../../deps.js";
import { inTransaction } from "../../events/bus.js";
import { companyLockoutNow, pastDueAdminPasses } from "../../http/companyStanding.js";
import { AppError } from "../../http/errors.js";
import { limiterStore } from "../../http/rateLimit.js";
import { hashToken, newRefreshToken } from "../../http/tokens.js";
import { dummyPasswordHash, verifyPassword } from "../../lib/passwords.js";
import { secretBoxFor } from "../../lib/secretBox.js";
import { findCompany, sessionCompany, subscriptionStatus } from "../companies/queries.js";
import { findUser, findUserForLogin, updateUser } from "../users/queries.js";
import * as q from "../sessions/queries.js";

type AuthDeps = Pick<Deps, "db" | "bus" | "tokens" | "config" | "now">;

export interface IssuedSession extends LoginAnswer {
  refreshToken: string;
  refreshExpiresAt: Date;
}

/** How long a just-rotated refresh token is still honoured: two tabs refreshing at the same instant. */
export const REFRESH_REUSE_GRACE_MS = 2_000;

export function createAuthService(
  { db, bus, tokens, config, now }: AuthDeps,
  opts = { reuseGraceMs: REFRESH_REUSE_GRACE_MS },
) {
  const windowMs = config.LOGIN_WINDOW_SECONDS * 1000;
  const limits = loginLimits(config, db, windowMs);
  const { byIp, byEmail } = limits;

  async function sessionUser(companyId: number, userId: number): Promise<SessionUserDTO> {
    const user = await findUser(db, companyId, userId);
    const company = await sessionCompany(db, companyId, secretBoxFor(config));
    if (!user || !company) throw new AppError("ERR_NO_SESSION");
    return { ...user, company, permissions: permissionsOf(user) };
  }

  /**
   * Refuses a company that is inactive, or past its due date (and the platform's grace days) but to
   * its admins: they log in to reach the payment pages only (`locked`; see lockoutOf).
   */
  async function checkCompany(companyId: number, userId: number) {
    const row = await findCompany(db, companyId);
    if (!row) throw new AppError("ERR_NO_SESSION");
    if (!row.company.status) throw new AppError("ERR_COMPANY_INACTIVE");
    const status = subscriptionStatus(row.company.dueDate, now());
    const lock = await companyLockoutNow(db, companyId, now());
    if (lock) {
      if (!pastDueAdminPasses(lock, (await findUser(db, companyId, userId))?.profile)) throw lock;
      return { ...status, locked: true };
    }
    return status;
  }

  async function issue(companyId: number, userId: number, sessionId: string, tx: Executor = db) {
    const refreshToken = newRefreshToken();
    const refreshExpiresAt = new Date(now().getTime() + config.REFRESH_TOKEN_DAYS * 86_400_000);
    await q.insertRefreshToken(tx, {
      companyId,
      userId,
      sessionId,
      tokenHash: hashToken(refreshToken),
      expiresAt: refreshExpiresAt,
    });
    const token = await tokens.sign({ userId, companyId, sessionId });
    return { token, refreshToken, refreshExpiresAt };
  }

  return {
    async login(input: LoginInput, ip: string): Promise<IssuedSession> {
      const ipKey = `ip:${ip}`;
      const emailKey = `email:${input.email}`;
      const wait = Math.max(await byIp.blockedFor(ipKey), await byEmail.blockedFor(emailKey));
      if (wait > 0) throw new AppError("ERR_TOO_MANY_LOGIN_ATTEMPTS", { retryAfter: wait });
      await byIp.hit(ipKey);

      const row = await findUserForLogin(db, input.email);
      const ok = await verifyPassword(row?.passwordHash ?? (await dummyPasswordHash()), input.password);
      if (!row || !ok) {
        await byEmail.hit(emailKey);
        throw new AppError("ERR_INVALID_CREDENTIALS");
      }
      await byEmail.reset(emailKey);
      const subscription = await checkCompany(row.companyId, row.id);

      // One session per user: a login revokes the others, whose sockets are told after commit.
      const sessionId = crypto.randomUUID();
      const issued = await inTransaction(db, bus, async (tx, raise) => {
        await q.revokeUserSessions(tx, row.companyId, row.id, now());
        await updateUser(tx, row.companyId, row.id, { online: true, lastSeenAt: now() });
        raise({ type: "session.started", companyId: row.companyId, userId: row.id, sessionId });
        if (!row.online) {
          const user = await findUser(tx, row.companyId, row.id);
          if (user) raise({ type: "user.saved", action: "update", companyId: row.companyId, user });
        }
        return issue(row.companyId, row.id, sessionId, tx);
      });
      return { ...issued, user: await sessionUser(row.companyId, row.id), subscription };
    },

    async refresh(refreshToken: string | undefined): Promise<IssuedSession> {
      if (!refreshToken) throw new AppError("ERR_NO_SESSION");
      const row = await q.findRefreshToken(db, hashToken(refreshToken));
      const at = now();
      if (!row || row.revokedAt || row.expiresAt <= at) throw new AppError("ERR_NO_SESSION");
      const subscription = await checkCompany(row.companyId, row.userId);
      if (row.rotatedAt || !(await q.markRotated(db, row.id, at))) {
        // A rotated token used again: a twin request within the grace, or a stolen copy after it.
        const seen = row.rotatedAt ? row : await q.findRefreshToken(db, row.tokenHash);
        if (!seen || seen.revokedAt) throw new AppError("ERR_NO_SESSION");
        if (at.getTime() - (seen.rotatedAt ?? at).getTime() >= opts.reuseGraceMs) {
          await q.revokeSession(db, row.sessionId, at);
          await bus.publish([
            {
              type: "session.revoked",
              companyId: row.companyId,
              userId: row.userId,
              sessionId: row.sessionId,
            },
          ]);
          throw new AppError("ERR_NO_SESSION");
        }
      }
      // Every use of this token within the grace gets the same successor: one chain, never two.
      const successor = tokens.successorOf(refreshToken);
      const stored = await q.insertSuccessorToken(db, {
        companyId: row.companyId,
        userId: row.userId,
        sessionId: row.sessionId,
        tokenHash: hashToken(successor),
        expiresAt: new Date(at.getTime() + config.REFRESH_TOKEN_DAYS * 86_400_000),
      });
      if (!stored || stored.revokedAt) throw new AppError("ERR_NO_SESSION");
      const token = await tokens.sign({
        userId: row.userId,
        companyId: row.companyId,
        sessionId: row.sessionId,
      });
      return {
        token,
        refreshToken: successor,
        refreshExpiresAt: stored.expiresAt,
        user: await sessionUser(row.companyId, row.userId),
        subscription,
      };
    },

    async logout(companyId: number, userId: number): Promise<void> {
      await inTransaction(db, bus, async (tx, raise) => {
        await q.revokeUserSessions(tx, companyId, userId, now());
        raise({ type: "user.sessionsRevoked", companyId, userId });
        await updateUser(tx, companyId, userId, { online: false });
        const user = await findUser(tx, companyId, userId);
        if (user) raise({ type: "user.saved", action: "update", companyId, user });
      });
    },

    /** Logout by refresh cookie alone, for a client whose access token is already gone. */
    async logoutByRefreshToken(refreshToken: string | undefined): Promise<void> {
      if (!refreshToken) return;
      const row = await q.findRefreshToken(db, hashToken(refreshToken));
      if (row) await this.logout(row.companyId, row.userId);
    },

    me: sessionUser,

    /** Lets go of the shared counters' Redis connection, if any. */
    close: limits.close,
  };
}

/**
 * The permission keys `actor` holds, read from the one table by `can` as every policy reads it: the
 * session carries them so that the web asks the server what its user may do.
 */
function permissionsOf(actor: Actor): Permission[] {
  return (Object.keys(PERMISSIONS) as Permission[]).filter((permission) => can(actor, permission));
}

/**
 * The login limits: in this process's memory alone, or, with REDIS_URL, in Redis under the
 * deployment's prefix, so every instance counts against one limit.
 */
function loginLimits(config: AuthDeps["config"], db: AuthDeps["db"], windowMs: number) {
  const store = limiterStore(config, db);
  return {
    byIp: store.limiter("login", config.LOGIN_MAX_PER_IP, windowMs),
    byEmail: store.limiter("login", config.LOGIN_MAX_PER_EMAIL, windowMs),
    close: () => store.close(),
  };
}

export type AuthService = ReturnType<typeof createAuthService>;

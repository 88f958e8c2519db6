import type { ListQuery, UserCreateInput, UserDTO, UserUpdateInput } from "@atende/contracts";
import { LIMITS } from "@atende/contracts";
import type { Deps } from "../../deps.js";
import { inTransaction } from "../../events/bus.js";
import type { AuthContext } from "../../http/auth.js";
import { AppError, uniqueOr } from "../../http/errors.js";
import { hashPassword, verifyPassword } from "../../lib/passwords.js";
import { endSessionsForNewPassword } from "../sessions/passwordChange.js";
import { requirePlanRoom } from "../plans/limits.js";
import { companyQueueIds } from "../queues/queries.js";
import { findWhatsappRow } from "../whatsapps/queries.js";
import * as q from "./queries.js";
import { userPolicy } from "./policy.js";

type UsersDeps = Pick<Deps, "db" | "bus" | "now" | "config">;

/** An updated user; `session` is the caller's fresh refresh token after changing their own password. */
export interface UpdatedUser {
  user: UserDTO;
  session: { refreshToken: string; refreshExpiresAt: Date } | null;
}

export function createUsersService({ db, bus, now, config }: UsersDeps) {
  async function checkQueues(companyId: number, queueIds: number[]) {
    const unique = [...new Set(queueIds)];
    const found = await companyQueueIds(db, companyId, unique);
    if (found.length !== unique.length) throw new AppError("ERR_NO_QUEUE_FOUND");
    return unique;
  }

  async function checkConnection(companyId: number, whatsappId: number | null | undefined) {
    if (whatsappId != null && !(await findWhatsappRow(db, companyId, whatsappId)))
      throw new AppError("ERR_NO_WAPP_FOUND");
  }

  return {
    page(actor: AuthContext, query: ListQuery) {
      userPolicy.list(actor);
      return q.pageUsers(db, actor.companyId, { ...query, pageSize: LIMITS.pageSize });
    },

    list(actor: AuthContext) {
      return q.listUsers(db, actor.companyId);
    },

    async get(actor: AuthContext, userId: number): Promise<UserDTO> {
      const user = await q.findUser(db, actor.companyId, userId);
      if (!user) throw new AppError("ERR_NO_USER_FOUND");
      userPolicy.view(actor, userId);
      return user;
    },

    async create(actor: AuthContext, input: UserCreateInput): Promise<UserDTO> {
      userPolicy.create(actor);
      const queueIds = await checkQueues(actor.companyId, input.queueIds);
      await checkConnection(actor.companyId, input.whatsappId);
      const passwordHash = await hashPassword(input.password);
      return uniqueOr("ERR_EMAIL_ALREADY_EXISTS", () =>
        inTransaction(db, bus, async (tx, raise) => {
          // Under the company's lock: two concurrent creations cannot both pass the plan limit.
          await requirePlanRoom(tx, actor.companyId, "users", () => q.countUsers(tx, actor.companyId));
          if (await q.emailTaken(tx, input.email)) throw new AppError("ERR_EMAIL_ALREADY_EXISTS");
          const row = await q.insertUser(tx, actor.companyId, {
            name: input.name,
            email: input.email,
            passwordHash,
            profile: input.profile,
            allTicket: input.allTicket,
            whatsappId: input.whatsappId ?? null,
          });
          if (!row) throw new Error("insert returned no row");
          await q.setUserQueues(tx, actor.companyId, row.id, queueIds);
          const user = (await q.findUser(tx, actor.companyId, row.id))!;
          raise({ type: "user.saved", action: "create", companyId: actor.companyId, user });
          return user;
        }),
      );
    },

    async update(actor: AuthContext, userId: number, input: UserUpdateInput): Promise<UpdatedUser> {
      const target = await q.findUserRow(db, actor.companyId, userId);
      if (!target) throw new AppError("ERR_NO_USER_FOUND");
      const current = (await q.findUser(db, actor.companyId, userId))!;
      userPolicy.update(
        actor,
        target,
        input,
        current.queues.map((x) => x.id),
      );
      const queueIds =
        input.queueIds !== undefined ? await checkQueues(actor.companyId, input.queueIds) : undefined;
      if (input.whatsappId !== undefined && input.whatsappId !== target.whatsappId)
        await checkConnection(actor.companyId, input.whatsappId);
      // A stolen access token must not be enough to take the account: one's own password changes
      // only with the current one (400, not 401: the caller's session is fine).
      const own = actor.userId === userId;
      if (input.password && own) {
        const ok =
          input.oldPassword !== undefined && (await verifyPassword(target.passwordHash, input.oldPassword));
        if (!ok) throw new AppError("ERR_INVALID_CREDENTIALS", {}, 400);
      }
      const passwordHash = input.password ? await hashPassword(input.password) : undefined;
      return uniqueOr("ERR_EMAIL_ALREADY_EXISTS", () =>
        inTransaction(db, bus, async (tx, raise) => {
          if (input.email && (await q.emailTaken(tx, input.email, userId)))
            throw new AppError("ERR_EMAIL_ALREADY_EXISTS");
          if (userPolicy.demotesAdmin(target, input)) {
            if ((await q.countAdmins(tx, actor.companyId)) <= 1) throw new AppError("ERR_LAST_ADMIN");
          }
          await q.updateUser(tx, actor.companyId, userId, {
            name: input.name,
            email: input.email,
            passwordHash,
            profile: input.profile,
            allTicket: input.allTicket,
            whatsappId: input.whatsappId,
            updatedAt: now(),
          });
          if (queueIds) await q.setUserQueues(tx, actor.companyId, userId, queueIds);
          const session = passwordHash
            ? await endSessionsForNewPassword(
                tx,
                raise,
                { companyId: actor.companyId, userId, keepSessionId: own ? actor.sessionId : undefined },
                now(),
                config.REFRESH_TOKEN_DAYS,
              )
            : null;
          const user = (await q.findUser(tx, actor.companyId, userId))!;
          raise({ type: "user.saved", action: "update", companyId: actor.companyId, user });
          return { user, session };
        }),
      );
    },

    async remove(actor: AuthContext, userId: number): Promise<void> {
      const target = await q.findUserRow(db, actor.companyId, userId);
      if (!target) throw new AppError("ERR_NO_USER_FOUND");
      userPolicy.remove(actor, target);
      await inTransaction(db, bus, async (tx, raise) => {
        await q.deleteUser(tx, actor.companyId, userId);
        raise({ type: "user.deleted", companyId: actor.companyId, userId });
      });
    },
  };
}

export type UsersService = ReturnType<typeof createUsersService>;

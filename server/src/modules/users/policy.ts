import { type UserUpdateInput, mayChangeUser } from "@atende/contracts";
import { type AuthContext, authorize } from "../../http/auth.js";
import { AppError } from "../../http/errors.js";
import type { UserRow } from "./present.js";

/** A super user's account is changed by super users alone (403 to anyone else; another company's is 404 first). */
function refuseSuperTarget(actor: AuthContext, target: Pick<UserRow, "super">) {
  if (!mayChangeUser(actor, target)) throw new AppError("ERR_NO_PERMISSION");
}

/**
 * Who may do what with users. Admins manage their company but its super users; anyone may edit their
 * own name, email and password.
 */
export const userPolicy = {
  list(actor: AuthContext) {
    authorize(actor, "users-page:manage");
  },
  view(actor: AuthContext, userId: number) {
    if (actor.userId !== userId) authorize(actor, "users-page:manage");
  },
  create(actor: AuthContext) {
    authorize(actor, "users-page:manage");
  },
  remove(actor: AuthContext, target: Pick<UserRow, "id" | "super">) {
    authorize(actor, "users-page:manage");
    refuseSuperTarget(actor, target);
    if (actor.userId === target.id) throw new AppError("ERR_CANNOT_DELETE_SELF");
  },
  /** The change takes an admin's profile away (the company's last admin must keep it). */
  demotesAdmin(target: Pick<UserRow, "profile">, input: Pick<UserUpdateInput, "profile">): boolean {
    return target.profile === "admin" && Boolean(input.profile) && input.profile !== "admin";
  },
  /** Fields beyond name, email and password need user-modal:editProfile / editQueues. */
  update(actor: AuthContext, target: UserRow, input: UserUpdateInput, currentQueueIds: number[]) {
    if (actor.userId !== target.id) authorize(actor, "users-page:manage");
    refuseSuperTarget(actor, target);
    const changes = (a: unknown, b: unknown) => a !== undefined && a !== b;
    if (
      changes(input.profile, target.profile) ||
      changes(input.allTicket, target.allTicket) ||
      changes(input.whatsappId, target.whatsappId)
    ) {
      authorize(actor, "user-modal:editProfile");
    }
    if (input.queueIds !== undefined) {
      const same =
        input.queueIds.length === currentQueueIds.length &&
        [...input.queueIds].sort().every((id, i) => id === [...currentQueueIds].sort()[i]);
      if (!same) authorize(actor, "user-modal:editQueues");
    }
  },
};

import { can, mayEditQuickMessage } from "@atende/contracts";
import { type AuthContext, authorize } from "../../http/auth.js";
import { AppError } from "../../http/errors.js";
import type { QuickMessageRow } from "./present.js";

type Owned = Pick<QuickMessageRow, "userId" | "geral">;

export const quickMessagePolicy = {
  /** Admin and supervisor see every quick message of the company; others their own and the global ones. */
  seesAll(actor: AuthContext): boolean {
    return can(actor, "quick-messages:editAny");
  },

  /** Seeing one: a personal quick message of someone else is not found, as if it did not exist. */
  see(actor: AuthContext, row: Owned): void {
    if (!row.geral && row.userId !== actor.userId && !this.seesAll(actor))
      throw new AppError("ERR_NO_QUICK_MESSAGE_FOUND");
  },

  /** Admin and supervisor edit or delete any; a user only their own non-global ones (the rule in contracts). */
  edit(actor: AuthContext, row: Owned): void {
    this.see(actor, row);
    if (!mayEditQuickMessage(actor, actor.userId, row)) throw new AppError("ERR_NO_PERMISSION");
  },

  /** The global (geral) flag is set, or taken off, by admins only. */
  setGlobal(actor: AuthContext, from: boolean, to: boolean | undefined): void {
    if (to !== undefined && to !== from) authorize(actor, "quick-messages:global");
  },
};

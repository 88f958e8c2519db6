import type { AuthContext } from "../../../http/auth.js";
import { checkAccess } from "../../../http/route.js";

/** Bots are managed by admins (bots:manage), checked after the row is found (404 before 403). */
export const botPolicy = {
  manage(actor: AuthContext): void {
    checkAccess(actor, "bots:manage");
  },
};

import type { AuthContext } from "../../http/auth.js";
import { requireSuper } from "../../http/auth.js";

export const announcementPolicy = {
  /**
   * Only the platform's super user writes announcements. Checked before the row is looked up, so a
   * company's admin hears 403 whether the id exists or not.
   */
  write(actor: AuthContext): void {
    requireSuper(actor);
  },
  /** The super user reads every announcement, inactive ones and those addressed to other companies. */
  readsAll(actor: Pick<AuthContext, "super">): boolean {
    return actor.super;
  },
};

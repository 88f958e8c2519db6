import type { AuthContext } from "../../http/auth.js";
import { requireSuper } from "../../http/auth.js";

export const helpPolicy = {
  /**
   * Only the platform's super user writes help videos. Checked before the row is looked up: the
   * list is the same for every company, so an id is no secret and a company admin hears 403, not 404.
   */
  write(actor: AuthContext): void {
    requireSuper(actor);
  },
};

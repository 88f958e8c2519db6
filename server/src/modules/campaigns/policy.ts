import type { AuthContext } from "../../http/auth.js";
import { authorize } from "../../http/auth.js";

/**
 * Campaigns are the admins' pages (the admin menu's permission). Routes without an id check it in
 * the route guard; on a route naming a campaign the service looks it up first (another company's
 * id answers 404) and asks this after.
 */
export const CAMPAIGNS_ACCESS = "drawer-admin-items:view" as const;

export const campaignPolicy = {
  manage(actor: AuthContext): void {
    authorize(actor, CAMPAIGNS_ACCESS);
  },
};

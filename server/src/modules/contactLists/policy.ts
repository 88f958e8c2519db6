import type { AuthContext } from "../../http/auth.js";
import { campaignPolicy } from "../campaigns/policy.js";

/**
 * Contact lists are the campaigns' audiences: whoever manages campaigns manages them, and nobody
 * else (an agent would otherwise change who a campaign sends to). Routes without an id are checked
 * by the route guard; on a route naming a list, an item or an import the service looks it up first
 * (another company's answers 404) and asks this after.
 */
export const contactListPolicy = {
  manage(actor: AuthContext): void {
    campaignPolicy.manage(actor);
  },
};

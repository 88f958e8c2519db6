import type { AuthContext } from "../../http/auth.js";

/**
 * Plans belong to the platform. The super user reads and writes every plan; a company's user reads
 * only the plan their company is on (any other plan answers 404, as another company's row does).
 */
export const planPolicy = {
  mayRead(actor: AuthContext, planId: number, ownPlanId: number | null): boolean {
    return actor.super || planId === ownPlanId;
  },
};

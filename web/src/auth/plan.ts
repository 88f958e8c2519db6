import type { PlanFlag, SessionUserDTO } from "@atende/contracts";

/**
 * Whether the company's plan has a feature, as the session says (the login and /auth/me answers carry
 * the company's plan). The server refuses the feature's calls on its own (403
 * ERR_PLAN_FEATURE_DISABLED); the web hides the feature's menu entries and sends its pages away.
 */
export function planAllows(user: Pick<SessionUserDTO, "company">, flag: PlanFlag): boolean {
  return user.company.plan?.[flag] === true;
}

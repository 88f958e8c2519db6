import { z } from "zod";
import type { PlanDTO } from "./companies.js";
import type { Permission } from "./permissions.js";
import type { SettingDTO } from "./settings.js";
import type { UserDTO } from "./users.js";
import { emailField } from "./validation.js";

export const loginSchema = z.object({
  email: emailField,
  password: z
    .string({ error: "validation.required" })
    .min(1, { error: "validation.required", abort: true })
    .max(200),
});
export type LoginInput = z.infer<typeof loginSchema>;

export interface SessionCompanyDTO {
  id: number;
  name: string;
  dueDate: string | null;
  /** The last day of a sign-up's trial (YYYY-MM-DD); null when the company has none. */
  trialExpiration: string | null;
  settings: SettingDTO[];
  plan: PlanDTO | null;
}

/** The user as login, refresh and /auth/me answer it. */
export interface SessionUserDTO extends UserDTO {
  company: SessionCompanyDTO;
  /**
   * The PERMISSIONS keys this user holds, as the server's policies decide them: the web shows and
   * hides controls from this list rather than deriving them from `profile` again. Added beside the
   * older fields, which Whaticket front ends still read.
   */
  permissions: Permission[];
}

export interface SubscriptionStatus {
  dueDate: string | null;
  /** Whole days from today (in the company's time zone) to the due date; null when none. */
  daysLeft: number | null;
  /** True when fewer than LIMITS.subscriptionWarningDays remain. */
  expiresSoon: boolean;
  /**
   * True for a past-due company's admin (due date and grace days gone): only the payment routes
   * answer (/invoices*, /subscription, /auth/me); the app sends them to /financeiro.
   */
  locked?: boolean;
}

export interface LoginAnswer {
  token: string;
  user: SessionUserDTO;
  subscription: SubscriptionStatus;
}

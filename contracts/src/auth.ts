import { z } from "zod";
import { sessionCompanySchema } from "./companies.js";
import { PERMISSIONS, type Permission } from "./permissions.js";
import { userSchema } from "./users.js";
import { emailField } from "./validation.js";

export const loginSchema = z.object({
  email: emailField,
  password: z
    .string({ error: "validation.required" })
    .min(1, { error: "validation.required", abort: true })
    .max(200),
});
export type LoginInput = z.infer<typeof loginSchema>;

const permissionKeys = Object.keys(PERMISSIONS) as [Permission, ...Permission[]];

/** The user as login, refresh and /auth/me answer it. */
export const sessionUserSchema = userSchema
  .extend({
    company: sessionCompanySchema,
    /**
     * The PERMISSIONS keys this user holds, as the server's policies decide them: the web shows and
     * hides controls from this list rather than deriving them from `profile` again. Added beside the
     * older fields, which Whaticket front ends still read.
     */
    permissions: z.array(z.enum(permissionKeys)),
  })
  .meta({ id: "SessionUser", description: "The signed-in user, with the company and the permissions" });
export type SessionUserDTO = z.infer<typeof sessionUserSchema>;

export const subscriptionStatusSchema = z
  .object({
    /** YYYY-MM-DD; null when the company has no due date. */
    dueDate: z.iso.date().nullable(),
    /** Whole days from today (in the company's time zone) to the due date; null when none. */
    daysLeft: z.number().int().nullable(),
    /** True when fewer than LIMITS.subscriptionWarningDays remain. */
    expiresSoon: z.boolean(),
    /**
     * True for a past-due company's admin (due date and grace days gone): only the payment routes
     * answer (/invoices*, /subscription, /auth/me); the app sends them to /financeiro.
     */
    locked: z.boolean().optional(),
  })
  .meta({ id: "SubscriptionStatus", description: "How long the company's subscription still runs" });
export type SubscriptionStatus = z.infer<typeof subscriptionStatusSchema>;

/** Login's and refresh's answer (the refresh token travels in the `jrt` cookie, never here). */
export const sessionSchema = z
  .object({
    /** The access token: `Authorization: Bearer <token>`; it lasts minutes (POST /auth/refresh_token). */
    token: z.string(),
    user: sessionUserSchema,
    subscription: subscriptionStatusSchema,
  })
  .meta({ id: "Session", description: "A session: the access token, the user and the subscription" });
export type LoginAnswer = z.infer<typeof sessionSchema>;

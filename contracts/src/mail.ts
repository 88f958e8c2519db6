import { z } from "zod";
import { rowId, timestamp } from "./answers.js";
import { emailField } from "./validation.js";

/** How long an e-mailed code works: a password reset, and a new admin's invitation. */
export const RESET_CODE_MINUTES = 15;
export const INVITE_CODE_HOURS = 72;
/** Tries per code (right or wrong); past them the code is dead and a new one must be asked for. */
export const RESET_CODE_ATTEMPTS = 5;

/** The spec's reset rule: at least 8 characters, an uppercase letter, a lowercase letter and a digit. */
export function isStrongPassword(v: string): boolean {
  return v.length >= 8 && /[A-Z]/.test(v) && /[a-z]/.test(v) && /\d/.test(v);
}

export const newPasswordField = z
  .string({ error: "validation.campoObrigatorio" })
  .min(1, { error: "validation.campoObrigatorio", abort: true })
  .max(200, "validation.tooLong")
  .refine(isStrongPassword, "validation.weakPassword");

/** The 6-digit code from the mail (spaces a user may paste around it are dropped). */
export const resetCodeField = z
  .string({ error: "validation.campoObrigatorio" })
  .transform((v) => v.replace(/\s+/g, ""))
  .pipe(
    z.string().min(1, { error: "validation.campoObrigatorio", abort: true }).max(64, "validation.tooLong"),
  );

/** Step 1: `POST /forgetpassword/{email}`. */
export const forgotPasswordParamsSchema = z.object({ email: emailField });

/** Step 2: `POST /resetpasswords` with this JSON body (or the same values in the legacy path). */
export const resetPasswordSchema = z.object({
  email: emailField,
  token: resetCodeField,
  newPassword: newPasswordField,
});
export type ResetPasswordInput = z.infer<typeof resetPasswordSchema>;

/** Both steps answer this on success; step 1 answers it for any e-mail, known or not. */
export interface MailAcceptedDTO {
  ok: true;
}

/** A mail kept in the dev outbox (no SMTP_URL outside production), as `GET /mail/outbox` lists it. */
export const outboxMailSchema = z
  .object({
    id: rowId,
    to: z.string(),
    subject: z.string(),
    text: z.string(),
    html: z.string(),
    createdAt: timestamp,
  })
  .meta({ id: "OutboxMail", description: "A mail kept in the development outbox" });
export type OutboxMailDTO = z.infer<typeof outboxMailSchema>;

/** `GET /mail/outbox` (super user): where mail goes, and the outbox's newest mails first. */
export const mailOutboxSchema = z
  .object({
    /** smtp: sent through SMTP_URL (the outbox stays empty); outbox: kept here; none: not sent at all. */
    mode: z.enum(["smtp", "outbox", "none"]),
    mails: z.array(outboxMailSchema),
  })
  .meta({ id: "MailOutbox", description: "Where mail goes, and the outbox's newest mails first" });
export type MailOutboxDTO = z.infer<typeof mailOutboxSchema>;

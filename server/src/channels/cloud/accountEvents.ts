import { z } from "zod";
import { cloudChangeSchema, cloudWebhookSchema } from "./payload.js";

/**
 * Meta's webhook fields about the account rather than conversations, for a Cloud API connection:
 * `account_update` (the WhatsApp Business account disabled, restricted, reinstated…) and
 * `message_template_status_update` (a template approved, paused, disabled…). Pure: what each change
 * means for the connections of the account (entry.id is the WABA id), never thrown on odd input.
 */

export type CloudAccountEvent =
  | {
      kind: "account";
      wabaId: string;
      /** The business number the change names, when it names one (digits as Meta sends them). */
      phoneNumber?: string;
      /** disable: nothing can be sent (ERR_WAPP_ACCOUNT_DISABLED); restrict: sends limited or a disabling scheduled; reinstate: back. */
      action: "disable" | "restrict" | "reinstate";
      /** Meta's event and its details, for the admins' mail. */
      detail: string;
    }
  | {
      kind: "template";
      wabaId: string;
      metaId?: string;
      name?: string;
      language?: string;
      /** APPROVED, REJECTED, PAUSED, DISABLED, PENDING_DELETION… */
      status: string;
    };

const accountUpdateSchema = z.object({
  phone_number: z.union([z.string(), z.number()]).optional(),
  event: z.string(),
  ban_info: z
    .object({ waba_ban_state: z.string().optional(), waba_ban_date: z.string().optional() })
    .optional(),
  restriction_info: z
    .array(z.object({ restriction_type: z.string().optional(), expiration: z.string().optional() }))
    .optional(),
  violation_info: z.object({ violation_type: z.string().optional() }).optional(),
});

const templateStatusSchema = z.object({
  event: z.string(),
  message_template_id: z.union([z.string(), z.number()]).optional(),
  message_template_name: z.string().optional(),
  message_template_language: z.string().optional(),
  reason: z.string().nullable().optional(),
});

/** The account's changes in a webhook body, in order. */
export function mapCloudAccountEvents(body: unknown): CloudAccountEvent[] {
  const envelope = cloudWebhookSchema.safeParse(body);
  if (!envelope.success) return [];
  const events: CloudAccountEvent[] = [];
  for (const entry of envelope.data.entry) {
    const wabaId = entry.id;
    if (!wabaId) continue;
    for (const raw of entry.changes) {
      const change = cloudChangeSchema.safeParse(raw);
      if (!change.success) continue;
      if (change.data.field === "account_update") {
        const value = accountUpdateSchema.safeParse(change.data.value);
        const event = value.success ? accountEvent(wabaId, value.data) : null;
        if (event) events.push(event);
      } else if (change.data.field === "message_template_status_update") {
        const value = templateStatusSchema.safeParse(change.data.value);
        if (!value.success) continue;
        const v = value.data;
        events.push({
          kind: "template",
          wabaId,
          ...(v.message_template_id !== undefined ? { metaId: String(v.message_template_id) } : {}),
          ...(v.message_template_name ? { name: v.message_template_name } : {}),
          ...(v.message_template_language ? { language: v.message_template_language } : {}),
          status: v.event.toUpperCase(),
        });
      }
    }
  }
  return events;
}

/**
 * What an account_update means: ACCOUNT_DELETED and a DISABLED_UPDATE to DISABLE stop the number;
 * a restriction, a violation or a disabling scheduled limit it (replies still go); REINSTATE brings
 * it back. Other events (verification, partners, pricing) change nothing here.
 */
function accountEvent(
  wabaId: string,
  v: z.infer<typeof accountUpdateSchema>,
): Extract<CloudAccountEvent, { kind: "account" }> | null {
  const ban = v.ban_info?.waba_ban_state?.toUpperCase();
  const event = v.event.toUpperCase();
  const action =
    event === "ACCOUNT_DELETED" || (event === "DISABLED_UPDATE" && ban === "DISABLE")
      ? "disable"
      : event === "DISABLED_UPDATE" && ban === "REINSTATE"
        ? "reinstate"
        : event === "ACCOUNT_RESTRICTION" ||
            event === "ACCOUNT_VIOLATION" ||
            (event === "DISABLED_UPDATE" && ban === "SCHEDULE_FOR_DISABLE")
          ? "restrict"
          : null;
  if (!action) return null;
  const details = [
    event,
    ban,
    ...(v.restriction_info ?? []).map((r) =>
      [r.restriction_type, r.expiration && `até ${r.expiration}`].filter(Boolean).join(" "),
    ),
    v.violation_info?.violation_type,
    v.ban_info?.waba_ban_date,
  ].filter(Boolean);
  return {
    kind: "account",
    wabaId,
    ...(v.phone_number !== undefined ? { phoneNumber: String(v.phone_number).replace(/\D/g, "") } : {}),
    action,
    detail: details.join(" · "),
  };
}

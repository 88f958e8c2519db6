import { z } from "zod";

/**
 * The parts of Meta's "messages" webhook the Cloud provider reads, as documented
 * (entry[].changes[].value). Each message and status is checked on its own, so one odd item never
 * loses the others; fields we do not read are dropped.
 */

const mediaSchema = z.object({
  id: z.string(),
  mime_type: z.string().optional(),
  sha256: z.string().optional(),
  caption: z.string().optional(),
  filename: z.string().optional(),
  voice: z.boolean().optional(),
  animated: z.boolean().optional(),
});
export type CloudMedia = z.infer<typeof mediaSchema>;

const sharedContactSchema = z.object({
  name: z
    .object({
      formatted_name: z.string().optional(),
      first_name: z.string().optional(),
      last_name: z.string().optional(),
    })
    .optional(),
  phones: z
    .array(
      z.object({ phone: z.string().optional(), wa_id: z.string().optional(), type: z.string().optional() }),
    )
    .optional(),
  emails: z.array(z.object({ email: z.string().optional(), type: z.string().optional() })).optional(),
  org: z.object({ company: z.string().optional() }).optional(),
});
export type CloudSharedContact = z.infer<typeof sharedContactSchema>;

export const cloudMessageSchema = z.object({
  id: z.string().min(1),
  from: z.string().min(1),
  /** Unix seconds, as a string. */
  timestamp: z.union([z.string(), z.number()]),
  type: z.string(),
  context: z
    .object({
      id: z.string().optional(),
      from: z.string().optional(),
      forwarded: z.boolean().optional(),
      frequently_forwarded: z.boolean().optional(),
    })
    .optional(),
  text: z.object({ body: z.string() }).optional(),
  image: mediaSchema.optional(),
  audio: mediaSchema.optional(),
  video: mediaSchema.optional(),
  document: mediaSchema.optional(),
  sticker: mediaSchema.optional(),
  location: z
    .object({
      latitude: z.coerce.number(),
      longitude: z.coerce.number(),
      name: z.string().optional(),
      address: z.string().optional(),
    })
    .optional(),
  contacts: z.array(sharedContactSchema).optional(),
  reaction: z.object({ message_id: z.string(), emoji: z.string().optional() }).optional(),
  interactive: z
    .object({
      type: z.string(),
      button_reply: z.object({ id: z.string(), title: z.string() }).optional(),
      list_reply: z
        .object({ id: z.string(), title: z.string(), description: z.string().optional() })
        .optional(),
    })
    .optional(),
  button: z.object({ text: z.string(), payload: z.string().optional() }).optional(),
});
export type CloudMessage = z.infer<typeof cloudMessageSchema>;

export const cloudStatusSchema = z.object({
  id: z.string().min(1),
  status: z.string(),
  timestamp: z.union([z.string(), z.number()]).optional(),
  recipient_id: z.string().optional(),
  errors: z
    .array(
      z.object({
        code: z.number().optional(),
        title: z.string().optional(),
        message: z.string().optional(),
        error_data: z.object({ details: z.string().optional() }).optional(),
      }),
    )
    .optional(),
});
export type CloudStatus = z.infer<typeof cloudStatusSchema>;

/** One change's value, with its messages and statuses still unchecked (checked one by one). */
export const cloudChangeValueSchema = z.object({
  messaging_product: z.string().optional(),
  metadata: z.object({ phone_number_id: z.string(), display_phone_number: z.string().optional() }),
  contacts: z
    .array(
      z.object({
        wa_id: z.string().optional(),
        profile: z.object({ name: z.string().optional() }).optional(),
      }),
    )
    .optional()
    .catch(undefined),
  messages: z.array(z.unknown()).optional().catch(undefined),
  statuses: z.array(z.unknown()).optional().catch(undefined),
});
export type CloudChangeValue = z.infer<typeof cloudChangeValueSchema>;

/** One change of an entry: `field` "messages" carries messages and statuses; other fields are not ours. */
export const cloudChangeSchema = z.object({ field: z.string().optional(), value: z.unknown() });

/** The envelope: { object: "whatsapp_business_account", entry: [{ id, changes: [{ field, value }] }] }. */
export const cloudWebhookSchema = z.object({
  object: z.string().optional(),
  entry: z.array(
    z.object({ id: z.string().optional(), changes: z.array(z.unknown()).catch([]) }).catch({ changes: [] }),
  ),
});

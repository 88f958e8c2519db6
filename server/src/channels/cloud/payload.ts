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

/** Meta's error object (a message's or a status's `errors[]`). */
const graphErrorSchema = z.object({
  code: z.number().optional(),
  title: z.string().optional(),
  message: z.string().optional(),
  error_data: z.object({ details: z.string().optional() }).optional(),
});

export const cloudMessageSchema = z.object({
  id: z.string().min(1),
  /** The customer's number; absent when they withhold it (usernames): then `from_user_id` names them. */
  from: z.string().min(1).optional(),
  /** The customer's business-scoped user id (BSUID, "BR.1502576394655843"). */
  from_user_id: z.string().min(1).optional(),
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
      /** A WhatsApp Flow's answer: `response_json` is the form's fields as a JSON string. */
      nfm_reply: z
        .object({
          name: z.string().optional(),
          body: z.string().optional(),
          response_json: z.string().optional(),
        })
        .optional(),
    })
    .optional(),
  button: z.object({ text: z.string(), payload: z.string().optional() }).optional(),
  /** type "order": a cart sent from the catalog. */
  order: z
    .object({
      catalog_id: z.string().optional(),
      text: z.string().optional(),
      product_items: z
        .array(
          z.object({
            product_retailer_id: z.string(),
            quantity: z.coerce.number().optional(),
            item_price: z.coerce.number().optional(),
            currency: z.string().optional(),
          }),
        )
        .optional(),
    })
    .optional(),
  /** type "system": the customer changed number (user_changed_number) or BSUID (user_changed_user_id). */
  system: z
    .object({
      body: z.string().optional(),
      type: z.string().optional(),
      /** The new WhatsApp id (number) after user_changed_number; older versions called it new_wa_id. */
      wa_id: z.string().optional(),
      new_wa_id: z.union([z.string(), z.number()]).optional(),
      user_id: z.string().optional(),
      previous_user_id: z.string().optional(),
    })
    .optional(),
  /** Click-to-WhatsApp: the ad or post the customer came from (on their first message). */
  referral: z
    .object({
      source_url: z.string().optional(),
      source_id: z.string().optional(),
      source_type: z.string().optional(),
      headline: z.string().optional(),
      body: z.string().optional(),
      media_type: z.string().optional(),
      ctwa_clid: z.string().optional(),
    })
    .optional(),
  /** type "unsupported": what Meta could not hand over. */
  unsupported: z.object({ type: z.string().optional() }).optional(),
  errors: z.array(graphErrorSchema).optional(),
});
export type CloudMessage = z.infer<typeof cloudMessageSchema>;

export const cloudStatusSchema = z.object({
  id: z.string().min(1),
  status: z.string(),
  timestamp: z.union([z.string(), z.number()]).optional(),
  recipient_id: z.string().optional(),
  recipient_user_id: z.string().optional(),
  /** Our own id of the message, echoed from the send's biz_opaque_callback_data. */
  biz_opaque_callback_data: z.string().optional(),
  errors: z.array(graphErrorSchema).optional(),
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
        /** The business-scoped user id (BSUID). */
        user_id: z.string().optional(),
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

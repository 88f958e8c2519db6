import { z } from "zod";
import { rowId, timestamp } from "./answers.js";
import { openingHoursDaySchema, schedulesField } from "./openingHours.js";
import { queueSlaFields, queueSlaSaveFields } from "./serviceLevels.js";
import { dbId, idValue, noNul, optionalEmpty, sizedText } from "./validation.js";

/** A queue as tickets, users and connections carry it. Output shapes (DTOs) are shared by HTTP answers and socket events alike. */
export const queueSchema = z
  .object({
    id: rowId,
    name: z.string(),
    /** A CSS colour: a hex code or a name. */
    color: z.string(),
  })
  .meta({ id: "Queue", description: "A queue as tickets, users and connections carry it" });
export type QueueDTO = z.infer<typeof queueSchema>;

/** A queue as its page, its dialog and the `company-{id}-queue` event carry it. */
export const queueDetailSchema = queueSchema
  .extend({
    /** The queue's number in the chatbot's menu; null: unnumbered. */
    orderQueue: z.number().int().nonnegative().nullable(),
    greetingMessage: z.string(),
    outOfHoursMessage: z.string(),
    integrationId: rowId.nullable(),
    promptId: rowId.nullable(),
    schedules: z.array(openingHoursDaySchema),
    /** The attachment sent with the greeting: a media path ("{companyId}/{file}") and its original name. */
    mediaPath: z.string().nullable(),
    mediaName: z.string().nullable(),
    // Service levels (issue 39).
    ...queueSlaFields,
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({
    id: "QueueDetail",
    description: "A queue as its page, its dialog and the company-{id}-queue event carry it",
  });
export type QueueDetailDTO = z.infer<typeof queueDetailSchema>;

/** One entry of a queue's chatbot menu; `children` is its own sub-menu, in option order. */
export interface QueueOptionDTO {
  id: number;
  queueId: number;
  parentId: number | null;
  title: string;
  message: string;
  /** The number the customer types to choose it. */
  option: number;
  mediaPath: string | null;
  mediaName: string | null;
  children: QueueOptionDTO[];
  createdAt: string;
  updatedAt: string;
}

export const queueOptionSchema: z.ZodType<QueueOptionDTO> = z
  .object({
    id: rowId,
    queueId: rowId,
    parentId: rowId.nullable(),
    title: z.string(),
    message: z.string(),
    /** The number the customer types to choose it. */
    option: z.number().int().nonnegative(),
    mediaPath: z.string().nullable(),
    mediaName: z.string().nullable(),
    /** Its own sub-menu, in option order. */
    get children(): z.ZodArray<z.ZodType<QueueOptionDTO>> {
      return z.array(queueOptionSchema);
    },
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({
    id: "QueueOption",
    description: "One entry of a queue's chatbot menu, with its whole sub-menu under children",
  });

export const QUEUE_LIMITS = {
  name: { min: 2, max: 50 },
  color: { min: 3, max: 9 },
  message: 4096,
  optionTitle: 100,
  /** Options of one queue, all levels together. */
  optionsPerQueue: 300,
  /** Levels of sub-menus below a queue's first menu. */
  optionDepth: 10,
  orderQueue: 9999,
} as const;

const longText = z
  .string("validation.invalid")
  .max(QUEUE_LIMITS.message, "validation.tooLong")
  .refine(noNul, "validation.invalid");

/** Colour: required, 3 to 9 characters (spec section 5), and a CSS colour: a hex code or a name. */
export const queueColorField = sizedText(QUEUE_LIMITS.color.min, QUEUE_LIMITS.color.max)
  .pipe(z.string().regex(/^(#[0-9a-f]{3,8}|[a-z]+)$/i, "validation.invalid"))
  .transform((v) => v.toLowerCase());

/** The queue's place in the menu; left empty: unnumbered. */
const orderQueueField = optionalEmpty(
  z.coerce
    .number("validation.invalid")
    .int("validation.invalid")
    .min(0, "validation.invalid")
    .max(QUEUE_LIMITS.orderQueue, "validation.invalid"),
  null,
);

/** POST /queue and PUT /queue/{id}. On update, fields left out keep their saved values. */
export const queueSaveSchema = z.object({
  name: sizedText(QUEUE_LIMITS.name.min, QUEUE_LIMITS.name.max),
  color: queueColorField,
  // The queue dialog sends an empty select or text as "", null or false: none.
  greetingMessage: optionalEmpty(longText, ""),
  outOfHoursMessage: optionalEmpty(longText, ""),
  orderQueue: orderQueueField,
  integrationId: optionalEmpty(dbId, null),
  promptId: optionalEmpty(dbId, null),
  schedules: schedulesField.optional(),
  ...queueSlaSaveFields,
});
export type QueueSaveInput = z.infer<typeof queueSaveSchema>;

/** A query id that may come as "-1" or "null": the clients of this API family say "no parent" that way. */
const parentQuery = z.preprocess(
  (v) => (v === undefined || v === "" ? undefined : v === "null" || v === "-1" || v === -1 ? null : v),
  idValue.nullable().optional(),
);

/** GET /queue-options: the options of one queue; `parentId` -1 (or null) answers its first menu. */
export const queueOptionsQuerySchema = z.object({
  queueId: idValue,
  parentId: parentQuery,
});
export type QueueOptionsQuery = z.infer<typeof queueOptionsQuerySchema>;

const optionTitle = sizedText(1, QUEUE_LIMITS.optionTitle);
const optionNumber = z.coerce
  .number("validation.invalid")
  .int("validation.invalid")
  .min(0, "validation.invalid")
  .max(999, "validation.invalid");

/** POST /queue-options: a new option under a queue, or under another option of the same queue. */
export const queueOptionCreateSchema = z.object({
  queueId: idValue,
  parentId: parentQuery,
  title: optionTitle,
  message: longText.default(""),
  /** Left out: the next number after its siblings'. */
  option: optionNumber.optional(),
});
export type QueueOptionCreateInput = z.infer<typeof queueOptionCreateSchema>;

/** PUT /queue-options/{id}: the option's text and number; it stays where it is in the tree. */
export const queueOptionUpdateSchema = z.object({
  title: optionTitle.optional(),
  message: longText.optional(),
  option: optionNumber.optional(),
});
export type QueueOptionUpdateInput = z.infer<typeof queueOptionUpdateSchema>;

/**
 * The one queue order (the bot's menu numbering, every list and select): orderQueue with the
 * unnumbered last, then name as the database orders it (by code point), then id.
 */
export function compareQueues(
  a: { id: number; name: string; orderQueue: number | null },
  b: { id: number; name: string; orderQueue: number | null },
): number {
  const order = (q: { orderQueue: number | null }) => q.orderQueue ?? Number.MAX_SAFE_INTEGER;
  const byName = a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
  return order(a) - order(b) || byName || a.id - b.id;
}

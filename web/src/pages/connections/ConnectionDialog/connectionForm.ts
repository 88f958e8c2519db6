import {
  DEFAULT_SCHEDULES,
  VALIDATION_MESSAGES,
  whatsappSaveSchema,
  type ProviderName,
  type WhatsappDetailDTO,
  type WhatsappSaveInput,
  type WhatsappScheduleEntry,
} from "@atende/contracts";
import { zodResolver } from "@hookform/resolvers/zod";
import type { FieldPath, Resolver } from "react-hook-form";
import type { WhatsappPayload } from "../../../api/whatsapps";
import { fieldErrorText, SERVER_ERROR } from "../../../components/formFields";

export interface CloudFormValues {
  phoneNumberId: string;
  wabaId: string;
  verifyToken: string;
  /** Empty keeps the stored secret. */
  accessToken: string;
  appSecret: string;
}

export interface ConnectionFormValues {
  name: string;
  provider: ProviderName;
  isDefault: boolean;
  greetingMessage: string;
  complationMessage: string;
  outOfHoursMessage: string;
  ratingMessage: string;
  expiresInactiveMessage: string;
  expiresTicket: number;
  timeUseBotQueues: number;
  maxUseBotQueues: number;
  queueIds: number[];
  transferQueueId: number | null;
  timeToTransfer: number;
  /** The bot or AI the connection hands conversations to (the service tab's selectors). */
  promptId: number | null;
  integrationId: number | null;
  schedules: WhatsappScheduleEntry[];
  cloud: CloudFormValues;
}

export type ConnectionFieldPath = FieldPath<ConnectionFormValues>;

/**
 * Seven rows in week order: the stored ones where present, the spec's default hours elsewhere
 * (contracts' DEFAULT_SCHEDULES).
 */
export function scheduleRows(stored: WhatsappScheduleEntry[] | undefined): WhatsappScheduleEntry[] {
  return DEFAULT_SCHEDULES.map((byDefault) => {
    const found = stored?.find((entry) => entry.weekdayEn === byDefault.weekdayEn);
    return found ? { ...found, weekday: found.weekday || byDefault.weekday } : { ...byDefault };
  });
}

export function initialValues(whatsapp: WhatsappDetailDTO | null): ConnectionFormValues {
  return {
    name: whatsapp?.name ?? "",
    provider: whatsapp?.provider ?? "beta",
    isDefault: whatsapp?.isDefault ?? false,
    greetingMessage: whatsapp?.greetingMessage ?? "",
    complationMessage: whatsapp?.complationMessage ?? "",
    outOfHoursMessage: whatsapp?.outOfHoursMessage ?? "",
    ratingMessage: whatsapp?.ratingMessage ?? "",
    expiresInactiveMessage: whatsapp?.expiresInactiveMessage ?? "",
    expiresTicket: whatsapp?.expiresTicket ?? 0,
    timeUseBotQueues: whatsapp?.timeUseBotQueues ?? 0,
    maxUseBotQueues: whatsapp?.maxUseBotQueues ?? 3,
    queueIds: whatsapp?.queues.map((queue) => queue.id) ?? [],
    transferQueueId: whatsapp?.transferQueueId ?? null,
    timeToTransfer: whatsapp?.timeToTransfer ?? 0,
    promptId: whatsapp?.promptId ?? null,
    integrationId: whatsapp?.integrationId ?? null,
    schedules: scheduleRows(whatsapp?.schedules),
    cloud: {
      phoneNumberId: whatsapp?.cloud.phoneNumberId ?? "",
      wabaId: whatsapp?.cloud.wabaId ?? "",
      verifyToken: whatsapp?.cloud.verifyToken ?? "",
      accessToken: "",
      appSecret: "",
    },
  };
}

// The schema reads these form values; its zod input type differs from them only in optionality.
export const connectionResolver = zodResolver(whatsappSaveSchema) as unknown as Resolver<
  ConnectionFormValues,
  unknown,
  WhatsappSaveInput
>;

/** The Cloud settings travel only for a Cloud connection. */
export function toPayload(values: WhatsappSaveInput): WhatsappPayload {
  const { cloud, ...rest } = values;
  return values.provider === "cloud" ? { ...rest, cloud } : rest;
}

/** Which tab holds a field, to show the first error where it is. */
export type TabKey = "general" | "service" | "schedules" | "cloud";

const SERVICE_FIELDS = new Set([
  "expiresTicket",
  "expiresInactiveMessage",
  "timeUseBotQueues",
  "maxUseBotQueues",
  "transferQueueId",
  "timeToTransfer",
  "promptId",
  "integrationId",
]);

export function tabOf(path: string): TabKey {
  const head = path.split(".")[0] ?? "";
  if (head === "schedules") return "schedules";
  if (head === "cloud") return "cloud";
  return SERVICE_FIELDS.has(head) ? "service" : "general";
}

const FORM_ROOTS = new Set(Object.keys(initialValues(null)));

/** A server field path ("schedules.0.startTime", "queueIds.1") as a form field, if the form has one. */
export function formPathOf(path: string): ConnectionFieldPath | undefined {
  const parts = path.split(".");
  const head = parts[0] ?? "";
  if (!FORM_ROOTS.has(head)) return undefined;
  if (head === "queueIds") return "queueIds";
  return path as ConnectionFieldPath;
}

/**
 * A field's error text. Some numeric rules of the schema carry zod's own wording instead of a
 * validation key: those show as "invalid value" in the user's language.
 */
export function errorText(error: { type?: unknown; message?: string } | undefined): string | undefined {
  if (!error?.message) return undefined;
  const known = error.type === SERVER_ERROR || error.message in VALIDATION_MESSAGES;
  return fieldErrorText(known ? error : { ...error, message: "validation.invalid" });
}

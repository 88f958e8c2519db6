import {
  SLA_LIMITS,
  queueSaveSchema,
  scheduleWeek,
  type QueueDetailDTO,
  type QueueSaveInput,
  type ScheduleEntry,
} from "@atende/contracts";
import { zodResolver } from "@hookform/resolvers/zod";
import type { FieldPath, Resolver } from "react-hook-form";
import type { QueuePayload } from "../../../api/queues";

export interface QueueFormValues {
  name: string;
  color: string;
  greetingMessage: string;
  outOfHoursMessage: string;
  /** As typed: empty means "after the numbered queues". */
  orderQueue: string;
  /** The bot or AI the queue hands its conversations to. */
  integrationId: number | null;
  promptId: number | null;
  schedules: ScheduleEntry[];
  /** Service levels: a target's total minutes as typed (hours and minutes add up to it); empty: no target. */
  slaFirstResponseMinutes: string;
  slaResolutionMinutes: string;
  slaWarningPercent: string;
  slaPauseOnCustomer: boolean;
}

export type QueueFieldPath = FieldPath<QueueFormValues>;
export type TabKey = "data" | "hours" | "sla" | "options";

/** A new queue's colour: one of the tags' palette the company does not use yet. */
const PALETTE = ["#2e7d32", "#1565c0", "#6a1b9a", "#ef6c00", "#00838f", "#c62828", "#ad1457", "#5c59a0"];

export function initialValues(queue: QueueDetailDTO | null, usedColors: string[] = []): QueueFormValues {
  const free = PALETTE.find((c) => !usedColors.includes(c)) ?? PALETTE[0]!;
  return {
    name: queue?.name ?? "",
    color: queue?.color ?? free,
    greetingMessage: queue?.greetingMessage ?? "",
    outOfHoursMessage: queue?.outOfHoursMessage ?? "",
    orderQueue: queue?.orderQueue === null || queue?.orderQueue === undefined ? "" : String(queue.orderQueue),
    integrationId: queue?.integrationId ?? null,
    promptId: queue?.promptId ?? null,
    schedules: scheduleWeek(queue?.schedules),
    slaFirstResponseMinutes: minutesText(queue?.slaFirstResponseMinutes),
    slaResolutionMinutes: minutesText(queue?.slaResolutionMinutes),
    slaWarningPercent: String(queue?.slaWarningPercent ?? SLA_LIMITS.warningPercent.default),
    slaPauseOnCustomer: queue?.slaPauseOnCustomer ?? false,
  };
}

function minutesText(minutes: number | null | undefined): string {
  return minutes === null || minutes === undefined ? "" : String(minutes);
}

// The schema reads these form values; its zod input type differs from them only in optionality.
export const queueResolver = zodResolver(queueSaveSchema) as unknown as Resolver<
  QueueFormValues,
  unknown,
  QueueSaveInput
>;

export function toPayload(values: QueueSaveInput): QueuePayload {
  return {
    name: values.name,
    color: values.color,
    greetingMessage: values.greetingMessage ?? "",
    outOfHoursMessage: values.outOfHoursMessage ?? "",
    orderQueue: values.orderQueue ?? null,
    integrationId: values.integrationId ?? null,
    promptId: values.promptId ?? null,
    schedules: values.schedules ?? scheduleWeek(undefined),
    slaFirstResponseMinutes: values.slaFirstResponseMinutes ?? null,
    slaResolutionMinutes: values.slaResolutionMinutes ?? null,
    slaWarningPercent: values.slaWarningPercent ?? SLA_LIMITS.warningPercent.default,
    slaPauseOnCustomer: values.slaPauseOnCustomer ?? false,
  };
}

/** Which tab holds a field, to show the first error where it is. */
export function tabOf(path: string): TabKey {
  const head = path.split(".")[0] ?? "";
  if (head.startsWith("sla")) return "sla";
  return head === "schedules" || head === "outOfHoursMessage" ? "hours" : "data";
}

const FORM_ROOTS = new Set(Object.keys(initialValues(null)));

/** A server field path ("schedules.0.startTime") as a form field, if the form has one. */
export function formPathOf(path: string): QueueFieldPath | undefined {
  return FORM_ROOTS.has(path.split(".")[0] ?? "") ? (path as QueueFieldPath) : undefined;
}

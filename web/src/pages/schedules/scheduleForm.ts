import { SCHEDULE, type ScheduleDTO, scheduleBodyField } from "@atende/contracts";
import { zodResolver } from "@hookform/resolvers/zod";
import { z } from "zod";
import type { ContactOption } from "../../api/tickets";

/** The send time as the form holds it: an ISO instant to the minute (the field shows it on the company's clock). */
export function toFormInstant(date: Date): string {
  return new Date(Math.floor(date.getTime() / 60_000) * 60_000).toISOString();
}

/** The form's fields, checked with the contracts' own rules ('Obrigatório', 'Mensagem muito curta'). */
export const scheduleFormSchema = z.object({
  contact: z.custom<ContactOption | null>().refine((c) => c !== null, "validation.obrigatorio"),
  body: scheduleBodyField,
  sendAt: z
    .string()
    .min(1, { error: "validation.obrigatorio", abort: true })
    .refine((v) => !Number.isNaN(new Date(v).getTime()), "validation.invalid"),
  /** "" sends through the company's default connection. */
  whatsappId: z.union([z.number(), z.literal("")]),
});
export type ScheduleFormValues = z.input<typeof scheduleFormSchema>;
export type ScheduleFormOutput = z.output<typeof scheduleFormSchema>;

export const scheduleFormResolver = zodResolver(scheduleFormSchema);

/** A new schedule goes one hour ahead through the default connection; an existing one shows its values. */
export function initialScheduleValues(
  schedule: ScheduleDTO | null,
  defaults: { whatsappId: number | ""; contact?: ContactOption | null },
): ScheduleFormValues {
  if (!schedule)
    return {
      contact: defaults.contact ?? null,
      body: "",
      sendAt: toFormInstant(new Date(Date.now() + SCHEDULE.defaultLeadMs)),
      whatsappId: defaults.whatsappId,
    };
  return {
    contact: { ...schedule.contact, isGroup: false },
    body: schedule.body,
    sendAt: toFormInstant(new Date(schedule.sendAt)),
    whatsappId: schedule.whatsappId ?? "",
  };
}

/** Only png, jpg and jpeg are sent with a schedule. */
export function isScheduleImage(file: File): boolean {
  return /\.(png|jpe?g)$/i.test(file.name) || (SCHEDULE.mediaTypes as readonly string[]).includes(file.type);
}

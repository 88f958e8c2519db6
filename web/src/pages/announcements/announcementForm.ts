import {
  type AnnouncementAdminDTO,
  announcementTextField,
  announcementTitleField,
  idValue,
} from "@atende/contracts";
import { zodResolver } from "@hookform/resolvers/zod";
import { z } from "zod";
import type { AnnouncementPayload } from "../../api/announcements";

/** The dialog's fields, checked with the contracts' own rules (title and text required). */
export const announcementFormSchema = z
  .object({
    title: announcementTitleField,
    text: announcementTextField,
    priority: z.union([z.literal(1), z.literal(2), z.literal(3)]),
    status: z.boolean(),
    allCompanies: z.boolean(),
    companyIds: z.array(idValue),
  })
  .refine((v) => v.allCompanies || v.companyIds.length > 0, {
    path: ["companyIds"],
    message: "validation.required",
  });
export type AnnouncementFormValues = z.input<typeof announcementFormSchema>;
export type AnnouncementFormOutput = z.output<typeof announcementFormSchema>;

export const announcementFormResolver = zodResolver(announcementFormSchema);

/** A new one: low priority, active, for every company (the spec's defaults). */
export function initialAnnouncementValues(record: AnnouncementAdminDTO | null): AnnouncementFormValues {
  return {
    title: record?.title ?? "",
    text: record?.text ?? "",
    priority: record?.priority ?? 3,
    status: record?.status ?? true,
    allCompanies: record?.allCompanies ?? true,
    companyIds: record?.companyIds ?? [],
  };
}

export function toAnnouncementPayload(values: AnnouncementFormOutput): AnnouncementPayload {
  return { ...values, companyIds: values.allCompanies ? [] : (values.companyIds as number[]) };
}

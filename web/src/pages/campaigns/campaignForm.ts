import {
  CAMPAIGN,
  CAMPAIGN_VARIANT_INDEXES,
  type CampaignCreateInput,
  type CampaignDTO,
  sizedText,
} from "@atende/contracts";
import { zodResolver } from "@hookform/resolvers/zod";
import { z } from "zod";

/** The schedule as the form holds it: an ISO instant ("" for none); the field shows it on the company's clock. */
export function toFormInstant(value: string | null): string {
  if (!value) return "";
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? "" : date.toISOString();
}

const message = z.string().max(CAMPAIGN.messageMax, "validation.tooLong");
/** "" for none (the selects' empty choice). */
const optionalId = z.union([z.number(), z.literal("")]);

/** The dialog's fields: the spec's name 2-50 (with the contracts' rule), five and five variants. */
export const campaignFormSchema = z.object({
  name: sizedText(CAMPAIGN.nameMin, CAMPAIGN.nameMax),
  message1: message,
  message2: message,
  message3: message,
  message4: message,
  message5: message,
  confirmationMessage1: message,
  confirmationMessage2: message,
  confirmationMessage3: message,
  confirmationMessage4: message,
  confirmationMessage5: message,
  confirmation: z.boolean(),
  scheduledAt: z
    .string()
    .refine((v) => v === "" || !Number.isNaN(new Date(v).getTime()), "validation.invalid"),
  whatsappId: optionalId,
  audience: z.enum(["list", "tag"]),
  contactListId: optionalId,
  tagListId: optionalId,
  fileListId: optionalId,
});
export type CampaignFormValues = z.input<typeof campaignFormSchema>;
export type CampaignFormOutput = z.output<typeof campaignFormSchema>;
export type CampaignFormField = keyof CampaignFormValues;

export const campaignFormResolver = zodResolver(campaignFormSchema);

export const MESSAGE_FIELDS = CAMPAIGN_VARIANT_INDEXES.map((n) => `message${n}` as const);
export const CONFIRMATION_FIELDS = CAMPAIGN_VARIANT_INDEXES.map((n) => `confirmationMessage${n}` as const);
export const FORM_FIELDS: CampaignFormField[] = [
  "name",
  ...MESSAGE_FIELDS,
  ...CONFIRMATION_FIELDS,
  "confirmation",
  "scheduledAt",
  "whatsappId",
  "contactListId",
  "tagListId",
  "fileListId",
];

/** A new campaign: no schedule (INATIVA), the company's default connection, audience from a list. */
export function initialCampaignValues(
  campaign: CampaignDTO | null,
  defaults: { whatsappId: number | "" },
): CampaignFormValues {
  return {
    name: campaign?.name ?? "",
    message1: campaign?.message1 ?? "",
    message2: campaign?.message2 ?? "",
    message3: campaign?.message3 ?? "",
    message4: campaign?.message4 ?? "",
    message5: campaign?.message5 ?? "",
    confirmationMessage1: campaign?.confirmationMessage1 ?? "",
    confirmationMessage2: campaign?.confirmationMessage2 ?? "",
    confirmationMessage3: campaign?.confirmationMessage3 ?? "",
    confirmationMessage4: campaign?.confirmationMessage4 ?? "",
    confirmationMessage5: campaign?.confirmationMessage5 ?? "",
    confirmation: campaign?.confirmation ?? false,
    scheduledAt: toFormInstant(campaign?.scheduledAt ?? null),
    whatsappId: campaign ? (campaign.whatsappId ?? "") : defaults.whatsappId,
    audience: campaign?.tagListId && !campaign.contactListId ? "tag" : "list",
    contactListId: campaign?.contactListId ?? "",
    tagListId: campaign?.tagListId ?? "",
    fileListId: campaign?.fileListId ?? "",
  };
}

const idOrNull = (v: number | "") => (v === "" ? null : v);

/** What POST/PUT /campaigns take: one audience only (the other cleared), the time as an instant. */
export function toCampaignPayload(values: CampaignFormOutput): CampaignCreateInput {
  const { audience, scheduledAt, contactListId, tagListId, whatsappId, fileListId, ...rest } = values;
  return {
    ...rest,
    scheduledAt: scheduledAt ? new Date(scheduledAt).toISOString() : null,
    whatsappId: idOrNull(whatsappId),
    fileListId: idOrNull(fileListId),
    contactListId: audience === "list" ? idOrNull(contactListId) : null,
    tagListId: audience === "tag" ? idOrNull(tagListId) : null,
  };
}

/** A server field path ("message3") as the form's field, if the form has it. */
export function formFieldOf(path: string): CampaignFormField | undefined {
  return FORM_FIELDS.find((f) => f === path);
}

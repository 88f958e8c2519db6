import type { CampaignDTO, CampaignShippingDTO } from "@atende/contracts";
import type { campaignShippings, campaigns } from "../../db/schema/index.js";

export type CampaignRow = typeof campaigns.$inferSelect;
export type ShippingRow = typeof campaignShippings.$inferSelect;

const iso = (d: Date | null) => d?.toISOString() ?? null;

/** The one shape of a campaign, for HTTP answers and `company-{id}-campaign` alike. */
export function presentCampaign(
  c: CampaignRow,
  whatsappName: string | null,
  listName: string | null,
  tagName: string | null,
): CampaignDTO {
  return {
    id: c.id,
    name: c.name,
    message1: c.message1,
    message2: c.message2,
    message3: c.message3,
    message4: c.message4,
    message5: c.message5,
    confirmationMessage1: c.confirmationMessage1,
    confirmationMessage2: c.confirmationMessage2,
    confirmationMessage3: c.confirmationMessage3,
    confirmationMessage4: c.confirmationMessage4,
    confirmationMessage5: c.confirmationMessage5,
    status: c.status,
    confirmation: c.confirmation,
    scheduledAt: iso(c.scheduledAt),
    completedAt: iso(c.completedAt),
    startedAt: iso(c.startedAt),
    whatsappId: c.whatsappId,
    contactListId: c.contactListId,
    tagListId: c.tagListId,
    fileListId: c.fileListId,
    companyId: c.companyId,
    mediaPath: c.mediaPath,
    mediaName: c.mediaName,
    mediaUrl: c.mediaPath ? `/media/${c.mediaPath}` : null,
    contactList:
      c.contactListId !== null && listName !== null ? { id: c.contactListId, name: listName } : null,
    whatsapp:
      c.whatsappId !== null && whatsappName !== null ? { id: c.whatsappId, name: whatsappName } : null,
    tagList: c.tagListId !== null && tagName !== null ? { id: c.tagListId, name: tagName } : null,
    pausedReason: c.pausedReason,
    template: c.template
      ? {
          name: c.template.name,
          language: c.template.language,
          header: c.template.header ?? [],
          body: c.template.body ?? [],
          headerMedia: c.template.headerMedia
            ? {
                ...(c.template.headerMedia.link ? { link: c.template.headerMedia.link } : {}),
                ...(c.template.headerMedia.id ? { id: c.template.headerMedia.id } : {}),
                ...(c.template.headerMedia.filename ? { filename: c.template.headerMedia.filename } : {}),
              }
            : null,
          buttons: (c.template.buttons ?? []).map((b) => ({ index: b.index, value: b.value })),
          text: c.template.text,
        }
      : null,
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
  };
}

/** A recipient as the report shows it; `ack` from its campaign message. */
export function presentShipping(s: ShippingRow, ack: number | null): CampaignShippingDTO {
  return {
    id: s.id,
    campaignId: s.campaignId,
    contactId: s.contactId,
    number: s.number,
    name: s.name,
    email: s.email,
    state: s.state,
    variant: s.variant,
    message: s.message,
    confirmationMessage: s.confirmationMessage,
    confirmationRequestedAt: iso(s.confirmationRequestedAt),
    confirmedAt: iso(s.confirmedAt),
    deliveredAt: iso(s.deliveredAt),
    ack,
    error: s.error,
  };
}

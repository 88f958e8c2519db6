import type {
  WhatsappDTO,
  WhatsappDetailDTO,
  WhatsappScheduleEntry,
  WhatsappSessionDTO,
} from "@atende/contracts";
import type { whatsapps } from "../../db/schema/index.js";

export type WhatsappRow = typeof whatsapps.$inferSelect;

export function presentSession(w: WhatsappRow): WhatsappSessionDTO {
  return {
    id: w.id,
    status: w.status,
    qrcode: w.qrcode,
    retries: w.retries,
    number: w.number,
    updatedAt: w.updatedAt.toISOString(),
  };
}

/** The connection as any user of the company sees it: no token, no provider secrets. */
export function presentWhatsapp(w: WhatsappRow, queueList: WhatsappDTO["queues"]): WhatsappDTO {
  return {
    ...presentSession(w),
    name: w.name,
    provider: w.provider,
    isDefault: w.isDefault,
    greetingMessage: w.greetingMessage,
    complationMessage: w.complationMessage,
    outOfHoursMessage: w.outOfHoursMessage,
    ratingMessage: w.ratingMessage,
    expiresInactiveMessage: w.expiresInactiveMessage,
    expiresTicket: w.expiresTicket,
    timeUseBotQueues: w.timeUseBotQueues,
    maxUseBotQueues: w.maxUseBotQueues,
    transferQueueId: w.transferQueueId,
    timeToTransfer: w.timeToTransfer,
    promptId: w.promptId,
    integrationId: w.integrationId,
    schedules: w.schedules as WhatsappScheduleEntry[],
    queues: queueList,
    createdAt: w.createdAt.toISOString(),
  };
}

/**
 * For the admin's dialog: the API token only as its hint (only POST /whatsapp/{id}/token answers a
 * token itself), and the Cloud settings with secrets shown only as "set".
 */
export function presentWhatsappDetail(
  w: WhatsappRow,
  queueList: WhatsappDTO["queues"],
  publicUrl: string,
): WhatsappDetailDTO {
  const c = w.providerConfig;
  return {
    ...presentWhatsapp(w, queueList),
    token: "",
    tokenHint: w.tokenHint,
    cloud: {
      phoneNumberId: c.phoneNumberId ?? "",
      wabaId: c.wabaId ?? "",
      verifyToken: c.verifyToken ?? "",
      accessTokenSet: Boolean(c.accessToken),
      appSecretSet: Boolean(c.appSecret),
      webhookUrl: `${publicUrl.replace(/\/$/, "")}/webhooks/cloud/${w.id}`,
    },
  };
}

import type { ScheduleDTO } from "@atende/contracts";
import type { schedules } from "../../db/schema/index.js";

export type ScheduleRow = typeof schedules.$inferSelect;

/** A schedule with the names it shows: its contact, author, connection and ticket. */
export interface ScheduleJoined {
  schedule: ScheduleRow;
  contact: { id: number; name: string; number: string; profilePicUrl: string };
  userName: string | null;
  whatsappName: string | null;
  ticketUuid: string | null;
}

/** The one shape of a schedule, for HTTP answers and the `company-{id}-schedule` event alike. */
export function presentSchedule(r: ScheduleJoined): ScheduleDTO {
  const s = r.schedule;
  return {
    id: s.id,
    body: s.body,
    contactId: s.contactId,
    contact: r.contact,
    userId: s.userId,
    user: s.userId !== null && r.userName !== null ? { id: s.userId, name: r.userName } : null,
    whatsappId: s.whatsappId,
    whatsapp:
      s.whatsappId !== null && r.whatsappName !== null ? { id: s.whatsappId, name: r.whatsappName } : null,
    sendAt: s.sendAt.toISOString(),
    sentAt: s.sentAt?.toISOString() ?? null,
    status: s.status,
    error: s.error,
    ticket: s.ticketId !== null && r.ticketUuid !== null ? { id: s.ticketId, uuid: r.ticketUuid } : null,
    mediaPath: s.mediaPath,
    mediaName: s.mediaName,
    mediaUrl: s.mediaPath ? `/media/${s.mediaPath}` : null,
    createdAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
  };
}

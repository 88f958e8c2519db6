import type { TicketDTO, TicketSlaDTO } from "@atende/contracts";
import type { TicketListRow, TicketRecord, TicketTagRow } from "./queries.js";

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * A ticket's service-level clocks (issue 39) from its row; null when its queue set none. `running`
 * names the target whose due time `slaDueAt` is: the first response until an agent answered, then
 * resolution (null when none runs: paused, met, closed).
 */
export function presentSla(
  t: Pick<
    TicketRecord,
    | "slaStartedAt"
    | "slaDueAt"
    | "slaWarnAt"
    | "slaPausedAt"
    | "slaFirstResponseDueAt"
    | "slaFirstResponseAt"
    | "slaFirstResponseBreachedAt"
    | "slaResolutionDueAt"
    | "slaResolvedAt"
    | "slaResolutionBreachedAt"
  >,
): TicketSlaDTO | null {
  if (!t.slaStartedAt) return null;
  const running =
    t.slaDueAt === null
      ? null
      : t.slaFirstResponseDueAt !== null && t.slaFirstResponseAt === null
        ? "firstResponse"
        : "resolution";
  return {
    running,
    dueAt: iso(t.slaDueAt),
    // Kept while the clock stands (the resume moves it), shown only while a clock runs.
    warnAt: running ? iso(t.slaWarnAt) : null,
    pausedAt: iso(t.slaPausedAt),
    startedAt: t.slaStartedAt.toISOString(),
    firstResponseDueAt: iso(t.slaFirstResponseDueAt),
    firstResponseAt: iso(t.slaFirstResponseAt),
    firstResponseBreachedAt: iso(t.slaFirstResponseBreachedAt),
    resolutionDueAt: iso(t.slaResolutionDueAt),
    resolvedAt: iso(t.slaResolvedAt),
    resolutionBreachedAt: iso(t.slaResolutionBreachedAt),
  };
}

/** The tickets in the order of `ids` as the list shows them: contact, agent, queue, connection, tags. */
export function presentTickets(ids: number[], rows: TicketListRow[], tagRows: TicketTagRow[]): TicketDTO[] {
  const tagsOf = new Map<number, TicketDTO["tags"]>();
  for (const { ticketId, ...tag } of tagRows) tagsOf.set(ticketId, [...(tagsOf.get(ticketId) ?? []), tag]);
  const byId = new Map<number, TicketDTO>(
    rows.map(({ t, contact, user, queue, whatsapp }) => [
      t.id,
      {
        id: t.id,
        uuid: t.uuid,
        status: t.status,
        contactId: t.contactId,
        contact,
        userId: t.userId,
        user: user?.id ? user : null,
        queueId: t.queueId,
        queue: queue?.id ? queue : null,
        whatsappId: t.whatsappId,
        whatsapp: whatsapp?.id ? whatsapp : null,
        lastMessage: t.lastMessage,
        unreadMessages: t.unreadMessages,
        isGroup: t.isGroup,
        chatbot: t.chatbot,
        tags: tagsOf.get(t.id) ?? [],
        sla: presentSla(t),
        createdAt: t.createdAt.toISOString(),
        updatedAt: t.updatedAt.toISOString(),
      },
    ]),
  );
  return ids.map((id) => byId.get(id)).filter((t): t is TicketDTO => Boolean(t));
}

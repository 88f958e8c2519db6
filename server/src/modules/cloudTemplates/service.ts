import crypto from "node:crypto";
import {
  CLOUD_WINDOW_HOURS,
  type CloudTemplateDTO,
  type ConversationWindowDTO,
  type MessageDTO,
  type TemplateSendInput,
  fillTemplate,
} from "@atende/contracts";
import type { GraphClient } from "../../channels/cloud/graph.js";
import { ChannelError } from "../../channels/provider.js";
import type { Deps } from "../../deps.js";
import { inTransaction } from "../../events/bus.js";
import type { AuthContext } from "../../http/auth.js";
import { AppError } from "../../http/errors.js";
import type { JobRunner } from "../../jobs/runner.js";
import { queueOutbound } from "../messages/outbound.js";
import { loadMessages } from "../messages/queries.js";
import { findTicketRow } from "../tickets/queries.js";
import type { TicketsService } from "../tickets/service.js";
import { findWhatsappRow } from "../whatsapps/queries.js";
import { lastInboundAt } from "./queries.js";
import { presentTemplate } from "./present.js";

export type CloudTemplatesDeps = Pick<Deps, "db" | "bus" | "now"> & {
  jobs: Pick<JobRunner, "poke">;
  tickets: TicketsService;
  graph: GraphClient;
};

/** Approved templates change rarely (Meta reviews them): a connection's list is kept this long. */
const TEMPLATES_TTL_MS = 10 * 60_000;

/**
 * The Cloud API's 24-hour window and message templates: the window of a ticket, the approved
 * templates of its connection (GET /{waba-id}/message_templates, cached), and a template send,
 * which goes through the same outbound queue as any agent's message.
 */
export function createCloudTemplatesService({ db, bus, now, jobs, tickets, graph }: CloudTemplatesDeps) {
  const cache = new Map<string, { at: number; list: CloudTemplateDTO[] }>();

  async function cloudConnection(companyId: number, whatsappId: number | null) {
    const row = whatsappId ? await findWhatsappRow(db, companyId, whatsappId) : null;
    if (!row) throw new AppError("ERR_NO_WAPP_FOUND");
    const { wabaId, accessToken } = row.providerConfig;
    if (row.provider !== "cloud" || !wabaId || !accessToken) throw new AppError("ERR_WAPP_NO_WABA");
    return { row, wabaId, accessToken };
  }

  async function approved(companyId: number, whatsappId: number, refresh = false) {
    const { row, wabaId, accessToken } = await cloudConnection(companyId, whatsappId);
    // A new token or WABA is another list; the token itself is never a key in memory.
    const key = `${row.id}:${wabaId}:${crypto.createHash("sha256").update(accessToken).digest("hex")}`;
    const hit = cache.get(key);
    if (hit && !refresh && now().getTime() - hit.at < TEMPLATES_TTL_MS) return hit.list;
    try {
      const list = (await graph.approvedTemplates(accessToken, wabaId)).map(presentTemplate);
      for (const k of cache.keys()) if (k.startsWith(`${row.id}:`)) cache.delete(k);
      cache.set(key, { at: now().getTime(), list });
      return list;
    } catch (err) {
      if (err instanceof ChannelError && err.code === "ERR_WAPP_NOT_INITIALIZED")
        throw new AppError("ERR_WAPP_NOT_INITIALIZED");
      if (err instanceof ChannelError) throw new AppError("ERR_WAPP_TEMPLATES");
      throw err;
    }
  }

  async function visible(actor: AuthContext, ticketId: number) {
    return tickets.visibleTicket(actor, await findTicketRow(db, actor.companyId, ticketId));
  }

  return {
    /** The approved templates of a Cloud API connection of the caller's company. */
    templates(actor: AuthContext, whatsappId: number, refresh: boolean): Promise<CloudTemplateDTO[]> {
      return approved(actor.companyId, whatsappId, refresh);
    },

    /** Whether a free-form message may go on this ticket now (Cloud API: within 24 h of the customer's last message). */
    async window(actor: AuthContext, ticketId: number): Promise<ConversationWindowDTO> {
      const ticket = await visible(actor, ticketId);
      const row = ticket.whatsappId ? await findWhatsappRow(db, actor.companyId, ticket.whatsappId) : null;
      if (!row || row.provider !== "cloud")
        return {
          applies: false,
          whatsappId: ticket.whatsappId,
          open: true,
          lastInboundAt: null,
          endsAt: null,
        };
      const last = await lastInboundAt(db, actor.companyId, ticket.contactId, row.id);
      const endsAt = last ? new Date(last.getTime() + CLOUD_WINDOW_HOURS * 3600_000) : null;
      return {
        applies: true,
        whatsappId: row.id,
        open: endsAt !== null && endsAt.getTime() > now().getTime(),
        lastInboundAt: last?.toISOString() ?? null,
        endsAt: endsAt?.toISOString() ?? null,
      };
    },

    /** An approved template, its variables filled, queued as the agent's message. */
    async send(actor: AuthContext, ticketId: number, input: TemplateSendInput): Promise<MessageDTO> {
      const ticket = await visible(actor, ticketId);
      if (ticket.status !== "open") throw new AppError("ERR_TICKET_NOT_OPEN");
      const { row } = await cloudConnection(actor.companyId, ticket.whatsappId);
      const template = (await approved(actor.companyId, row.id)).find(
        (t) => t.name === input.name && t.language === input.language,
      );
      if (!template) throw new AppError("ERR_WAPP_TEMPLATE_MISSING");
      if (input.header.length !== template.headerVariables || input.body.length !== template.bodyVariables)
        throw new AppError("ERR_WAPP_TEMPLATE_PARAMS");
      const text = [
        template.header && fillTemplate(template.header, input.header),
        fillTemplate(template.body, input.body),
        template.footer,
      ]
        .filter(Boolean)
        .join("\n\n");
      const id = await inTransaction(db, bus, (tx, raise) =>
        queueOutbound(tx, raise, {
          companyId: actor.companyId,
          ticketId: ticket.id,
          body: text,
          userId: actor.userId,
          at: now(),
          template: {
            name: template.name,
            language: template.language,
            ...(input.header.length ? { header: input.header } : {}),
            ...(input.body.length ? { body: input.body } : {}),
          },
        }),
      );
      jobs.poke();
      return (await loadMessages(db, actor.companyId, [id]))[0]!;
    },
  };
}

export type CloudTemplatesService = ReturnType<typeof createCloudTemplatesService>;

import type {
  CloudTemplateDTO,
  CloudTemplateSend,
  ConversationWindowDTO,
  MessageDTO,
  TemplateSendInput,
} from "@atende/contracts";
import type { GraphClient } from "../../channels/cloud/graph.js";
import { TOKEN_REFUSED } from "../../channels/cloud/graphErrors.js";
import { ChannelError, connectionInfoOf } from "../../channels/provider.js";
import type { Inbound } from "../../channels/sink.js";
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
import { composeTemplateSend } from "./compose.js";
import { presentTemplate } from "./present.js";
import * as q from "./queries.js";
import { conversationWindow } from "./window.js";

export type CloudTemplatesDeps = Pick<Deps, "db" | "bus" | "now"> & {
  jobs: Pick<JobRunner, "poke">;
  tickets: TicketsService;
  graph: GraphClient;
  /** Where a token Graph refused is reported (the connection's status, the admins' alert). */
  inbound: Pick<Inbound, "handle">;
};

/** Templates change rarely (Meta reviews them; statuses come by webhook): a stored list is read again from Graph past this. */
const TEMPLATES_TTL_MS = 10 * 60_000;
/** Statuses a template stops at after its approval: Meta refuses it (132015/132016) until it is enabled again. */
const PAUSED = new Set(["PAUSED", "DISABLED"]);

/**
 * The Cloud API's 24-hour window and message templates: the window of a ticket, the templates of
 * its connection (GET /{waba-id}/message_templates, stored so every instance sees one list and the
 * status webhook updates it), and a template send, which goes through the same outbound queue as any
 * agent's message.
 */
export function createCloudTemplatesService(deps: CloudTemplatesDeps) {
  const { db, bus, now, jobs, tickets, graph, inbound } = deps;

  async function cloudConnection(companyId: number, whatsappId: number | null) {
    const row = whatsappId ? await findWhatsappRow(db, companyId, whatsappId) : null;
    if (!row) throw new AppError("ERR_NO_WAPP_FOUND");
    const { wabaId, accessToken } = row.providerConfig;
    if (row.provider !== "cloud" || !wabaId || !accessToken) throw new AppError("ERR_WAPP_NO_WABA");
    return { row, wabaId, accessToken };
  }

  /** The connection's stored templates, read again from Graph when old, of another WABA, or asked for. */
  async function stored(companyId: number, whatsappId: number, refresh = false) {
    const { row, wabaId, accessToken } = await cloudConnection(companyId, whatsappId);
    const rows = await q.templateRows(db, companyId, row.id);
    const at = now();
    const fresh =
      rows.length > 0 &&
      rows.every((r) => r.wabaId === wabaId && at.getTime() - r.fetchedAt.getTime() < TEMPLATES_TTL_MS);
    if (fresh && !refresh) return rows;
    let listed;
    try {
      listed = await graph.templates(accessToken, wabaId);
    } catch (err) {
      if (err instanceof ChannelError && err.code === TOKEN_REFUSED) {
        await inbound.handle(connectionInfoOf(row), {
          type: "connection",
          status: "DISCONNECTED",
          reason: TOKEN_REFUSED,
        });
        throw new AppError(TOKEN_REFUSED);
      }
      if (err instanceof ChannelError) throw new AppError("ERR_WAPP_TEMPLATES");
      throw err;
    }
    await inTransaction(db, bus, (tx) =>
      q.replaceTemplates(
        tx,
        companyId,
        row.id,
        listed.map((t) => ({
          wabaId,
          metaId: t.id ?? null,
          name: t.name,
          language: t.language,
          status: t.status,
          category: t.category ?? "",
          parameterFormat: t.parameter_format ?? null,
          components: t.components ?? [],
          fetchedAt: at,
          updatedAt: at,
        })),
      ),
    );
    return q.templateRows(db, companyId, row.id);
  }

  async function approved(companyId: number, whatsappId: number, refresh = false) {
    return (await stored(companyId, whatsappId, refresh))
      .filter((r) => r.status === "APPROVED")
      .map(presentTemplate);
  }

  /** An approved template of the connection with the input checked against it; answers what goes and its text. */
  async function resolve(
    companyId: number,
    whatsappId: number | null,
    input: TemplateSendInput,
  ): Promise<{ send: CloudTemplateSend; text: string }> {
    const { row } = await cloudConnection(companyId, whatsappId);
    const rows = await stored(companyId, row.id);
    const match = rows.find((r) => r.name === input.name && r.language === input.language);
    if (match && PAUSED.has(match.status)) throw new AppError("ERR_WAPP_TEMPLATE_PAUSED");
    if (!match || match.status !== "APPROVED") throw new AppError("ERR_WAPP_TEMPLATE_MISSING");
    return composeTemplateSend(presentTemplate(match), input);
  }

  async function visible(actor: AuthContext, ticketId: number) {
    return tickets.visibleTicket(actor, await findTicketRow(db, actor.companyId, ticketId));
  }

  return {
    resolve,

    /** The approved templates of a Cloud API connection of the caller's company. */
    templates(actor: AuthContext, whatsappId: number, refresh: boolean): Promise<CloudTemplateDTO[]> {
      return approved(actor.companyId, whatsappId, refresh);
    },

    /** Whether a free-form message may go on this ticket now (Cloud API: within 24 h of the customer's last message). */
    async window(actor: AuthContext, ticketId: number): Promise<ConversationWindowDTO> {
      const ticket = await visible(actor, ticketId);
      const row = ticket.whatsappId ? await findWhatsappRow(db, actor.companyId, ticket.whatsappId) : null;
      const window = await conversationWindow(db, actor.companyId, ticket.contactId, row, now());
      return { ...window, whatsappId: ticket.whatsappId };
    },

    /** An approved template, its variables filled, queued as the agent's message. */
    async send(actor: AuthContext, ticketId: number, input: TemplateSendInput): Promise<MessageDTO> {
      const ticket = await visible(actor, ticketId);
      if (ticket.status !== "open") throw new AppError("ERR_TICKET_NOT_OPEN");
      const { send, text } = await resolve(actor.companyId, ticket.whatsappId, input);
      const id = await inTransaction(db, bus, (tx, raise) =>
        queueOutbound(tx, raise, {
          companyId: actor.companyId,
          ticketId: ticket.id,
          body: text,
          userId: actor.userId,
          at: now(),
          template: send,
        }),
      );
      jobs.poke();
      return (await loadMessages(db, actor.companyId, [id]))[0]!;
    },
  };
}

export type CloudTemplatesService = ReturnType<typeof createCloudTemplatesService>;

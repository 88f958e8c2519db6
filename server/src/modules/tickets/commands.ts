import type { TicketDTO, TicketUpdateInput } from "@atende/contracts";
import type { Deps } from "../../deps.js";
import { type AutomaticMessage, inTransaction } from "../../events/bus.js";
import type { AuthContext } from "../../http/auth.js";
import { AppError } from "../../http/errors.js";
import { dbErrorCode } from "../../db/errors.js";
import { companyQueueIds } from "../queues/queries.js";
import { findUser } from "../users/queries.js";
import { findWhatsappRow } from "../whatsapps/queries.js";
import { companySetting, companySettings } from "../settings/queries.js";
import { acceptGreeting, transferNotice } from "./automaticMessages.js";
import { ticketPolicy } from "./policy.js";
import * as q from "./queries.js";
import { ratingQuestion } from "./rating.js";

// The ticket commands of PUT /tickets/{id}, each by its name: accept, reopen, resolve, return,
// transfer. Each checks what its body asks, decides the automatic message the customer gets, and
// writes the change in one transaction (`commit`) whose ticket.saved the followers act on
// (listeners.ts): the message queued, the rating awaited, the bot stopped. The other commands of
// the conversation: `openOrFindLiveTicket` (openLive.ts) and `closeTicket` (closeTicket.ts).

/** What a command needs of the app. */
export type TicketContext = Pick<Deps, "db" | "bus" | "now">;

type TicketRow = q.TicketRecord;

/** The ticket's status or agent changed between reading it and writing it. */
export class ChangedMeanwhile extends Error {}

/** The commands of PUT /tickets/{id}; which one a body asks for is decided by `commandOf`. */
export type TicketCommand = "accept" | "resolve" | "return" | "reopen" | "transfer";

/**
 * The spec's status table read from a body (see ticketUpdateSchema): status "open" accepts a
 * waiting or in-service ticket and reopens a closed one; "closed" resolves, "pending" returns; no
 * status transfers (queue, agent, connection) or only sets the integration fields.
 */
export function commandOf(ticket: { status: string }, input: TicketUpdateInput): TicketCommand {
  switch (input.status) {
    case "open":
      return ticket.status === "closed" ? "reopen" : "accept";
    case "closed":
      return "resolve";
    case "pending":
      return "return";
    default:
      return "transfer";
  }
}

/** What a command writes, and what follows from it in the same transaction. */
interface TicketChange {
  patch: q.TicketPatch;
  /** pending → open: the timeline's acceptedAt. */
  accepting: boolean;
  /** The automatic message the change sends the customer, read before the transaction. */
  message: AutomaticMessage | null;
}

export async function otherOpenTicket(
  ctx: TicketContext,
  companyId: number,
  contactId: number,
  whatsappId: number | null,
): Promise<never> {
  const holder = await q.liveTicketOf(ctx.db, companyId, contactId, whatsappId);
  throw new AppError("ERR_OTHER_OPEN_TICKET", {
    ticketId: holder?.id ?? null,
    userName: holder?.user_name ?? null,
    queueName: holder?.queue_name ?? null,
  });
}

export async function checkUser(ctx: TicketContext, companyId: number, userId: number) {
  if (!(await findUser(ctx.db, companyId, userId))) throw new AppError("ERR_NO_USER_FOUND");
}

export async function checkQueue(ctx: TicketContext, companyId: number, queueId: number) {
  if ((await companyQueueIds(ctx.db, companyId, [queueId])).length !== 1)
    throw new AppError("ERR_NO_QUEUE_FOUND");
}

/** The fields any command may carry besides status and agent: queue, connection, integration. */
async function fieldsOf(
  ctx: TicketContext,
  actor: AuthContext,
  input: TicketUpdateInput,
): Promise<q.TicketPatch> {
  const patch: q.TicketPatch = {};
  if (input.queueId !== undefined) {
    if (input.queueId !== null) await checkQueue(ctx, actor.companyId, input.queueId);
    patch.queueId = input.queueId;
  }
  if (input.whatsappId !== undefined && input.whatsappId !== null) {
    if (!(await findWhatsappRow(ctx.db, actor.companyId, input.whatsappId)))
      throw new AppError("ERR_NO_WAPP_FOUND");
    patch.whatsappId = input.whatsappId;
  }
  return patch;
}

function integrationOf(input: TicketUpdateInput): q.TicketPatch {
  const patch: q.TicketPatch = {};
  if (input.useIntegration !== undefined) patch.useIntegration = input.useIntegration;
  if (input.promptId !== undefined) patch.promptId = input.promptId;
  if (input.integrationId !== undefined) patch.integrationId = input.integrationId;
  return patch;
}

/**
 * The automatic message a command sends (none to groups), read before its transaction opens: on
 * PGlite a query outside `tx` would wait for it forever.
 * - accept: the agent's greeting (setting sendGreetingAccepted);
 * - resolve: the connection's rating question (setting userRating) or else its completion message;
 * - transfer to another queue: the notice naming the queue (setting sendMsgTransfTicket).
 */
async function automaticMessage(
  ctx: TicketContext,
  actor: AuthContext,
  ticket: TicketRow,
  event:
    | { kind: "accept" }
    | { kind: "resolve"; whatsappId: number | null }
    | { kind: "transfer"; queueId: number; whatsappId: number | null },
): Promise<AutomaticMessage | null> {
  if (ticket.isGroup) return null;
  if (event.kind === "accept") {
    if ((await companySetting(ctx.db, actor.companyId, "sendGreetingAccepted")) !== "enabled") return null;
    const me = await findUser(ctx.db, actor.companyId, actor.userId);
    const contact = await q.findContactRow(ctx.db, actor.companyId, ticket.contactId);
    return { body: acceptGreeting(contact?.name ?? "", me?.name ?? ""), userId: actor.userId };
  }
  const settings = await companySettings(ctx.db, actor.companyId);
  const connection =
    event.whatsappId === null ? null : await findWhatsappRow(ctx.db, actor.companyId, event.whatsappId);
  if (event.kind === "resolve") {
    // The ticket closes at once; the bot state (ratingAsks) keeps the rating awaited, and the
    // customer's answer still reaches this closed ticket for a while (RATING_WAIT_MS).
    if (settings.userRating === "enabled" && connection?.ratingMessage.trim())
      return { body: ratingQuestion(connection), asksRating: true };
    return connection?.complationMessage.trim() ? { body: connection.complationMessage } : null;
  }
  if (settings.sendMsgTransfTicket !== "enabled") return null;
  const queueName = await q.queueNameOf(ctx.db, actor.companyId, event.queueId);
  return queueName ? { body: transferNotice(queueName) } : null;
}

/** pending → open (or an in-service ticket taken again): the ticket becomes the caller's. */
export async function acceptTicket(
  ctx: TicketContext,
  actor: AuthContext,
  ticket: TicketRow,
  input: TicketUpdateInput,
) {
  if (!ticketPolicy.mayTake(actor, ticket)) throw new AppError("ERR_NO_PERMISSION");
  const accepting = ticket.status === "pending";
  const patch = await takenBy(ctx, actor, input);
  return commit(ctx, actor, ticket, {
    patch,
    accepting,
    message: accepting ? await automaticMessage(ctx, actor, ticket, { kind: "accept" }) : null,
  });
}

/** closed → open: the caller's again, the timeline's finish undone, no rating awaited any more. */
export async function reopenTicket(
  ctx: TicketContext,
  actor: AuthContext,
  ticket: TicketRow,
  input: TicketUpdateInput,
) {
  return commit(ctx, actor, ticket, {
    patch: await takenBy(ctx, actor, input),
    accepting: false,
    message: null,
  });
}

async function takenBy(
  ctx: TicketContext,
  actor: AuthContext,
  input: TicketUpdateInput,
): Promise<q.TicketPatch> {
  const userId = ticketPolicy.assignee(actor, input.userId);
  const patch = { status: "open" as const, userId, ...(await fieldsOf(ctx, actor, input)) };
  if (userId !== actor.userId) await checkUser(ctx, actor.companyId, userId);
  return { ...patch, ...integrationOf(input) };
}

/** → closed: the rating question or the completion message goes to the customer. */
export async function resolveTicket(
  ctx: TicketContext,
  actor: AuthContext,
  ticket: TicketRow,
  input: TicketUpdateInput,
) {
  const patch = {
    status: "closed" as const,
    ...(await fieldsOf(ctx, actor, input)),
    ...integrationOf(input),
  };
  const message =
    ticket.status !== "closed"
      ? await automaticMessage(ctx, actor, ticket, {
          kind: "resolve",
          whatsappId: patch.whatsappId ?? ticket.whatsappId,
        })
      : null;
  return commit(ctx, actor, ticket, { patch, accepting: false, message });
}

/** → pending, no agent: back to waiting. */
export async function returnTicket(
  ctx: TicketContext,
  actor: AuthContext,
  ticket: TicketRow,
  input: TicketUpdateInput,
) {
  const patch = {
    status: "pending" as const,
    userId: null,
    ...(await fieldsOf(ctx, actor, input)),
    ...integrationOf(input),
  };
  return commit(ctx, actor, ticket, { patch, accepting: false, message: null });
}

/**
 * To a queue, an agent or a connection. An agent chosen: theirs, open (a closed ticket stays
 * closed). A queue chosen with no agent: back to waiting in that queue. With none of the three,
 * only the integration fields change.
 */
export async function transferTicket(
  ctx: TicketContext,
  actor: AuthContext,
  ticket: TicketRow,
  input: TicketUpdateInput,
) {
  const patch = await fieldsOf(ctx, actor, input);
  if (input.userId) {
    await checkUser(ctx, actor.companyId, input.userId);
    patch.userId = input.userId;
    patch.status = ticket.status === "closed" ? "closed" : "open";
  } else if (input.queueId !== undefined) {
    patch.userId = null;
    patch.status = "pending";
  }
  Object.assign(patch, integrationOf(input));
  const queueMoved =
    patch.queueId !== undefined && patch.queueId !== null && patch.queueId !== ticket.queueId;
  const message = queueMoved
    ? await automaticMessage(ctx, actor, ticket, {
        kind: "transfer",
        queueId: patch.queueId!,
        whatsappId: patch.whatsappId ?? ticket.whatsappId,
      })
    : null;
  return commit(ctx, actor, ticket, { patch, accepting: false, message });
}

/**
 * Writes a command's change if nobody changed the ticket's status or agent since it was read
 * (else ChangedMeanwhile, and `update` decides again), with its timeline step. Its `ticket.saved`
 * carries the automatic message; what follows a change is the followers' (listeners.ts): the
 * message queued (messages), the rating awaited or no longer awaited (chatbot), the bot stopped.
 */
async function commit(
  ctx: TicketContext,
  actor: AuthContext,
  ticket: TicketRow,
  change: TicketChange,
): Promise<TicketDTO> {
  const { patch, accepting, message } = change;
  const id = ticket.id;
  const reopening = patch.status === "open" && ticket.status === "closed";
  let updated: TicketDTO;
  try {
    updated = await inTransaction(ctx.db, ctx.bus, async (tx, raise) => {
      if (
        !(await q.updateTicketIfUnchanged(tx, actor.companyId, id, ticket, {
          ...patch,
          updatedAt: ctx.now(),
        }))
      )
        throw new ChangedMeanwhile();
      const at = ctx.now();
      const after = {
        id,
        companyId: actor.companyId,
        whatsappId: patch.whatsappId ?? ticket.whatsappId,
        queueId: patch.queueId !== undefined ? patch.queueId : ticket.queueId,
        userId: patch.userId !== undefined ? patch.userId : ticket.userId,
      };
      await q.track(
        tx,
        after,
        {
          ...(accepting ? { acceptedAt: at } : {}),
          ...(patch.queueId !== undefined && patch.queueId !== null
            ? { queuedAt: at }
            : ticket.queueId !== null
              ? { queuedAt: ticket.createdAt } // created in the connection's only queue
              : {}),
          ...(patch.status === "closed" ? { finishedAt: at } : {}),
          ...(reopening ? { finishedAt: null } : {}),
          ...(message?.asksRating ? { ratingAt: at } : {}),
        },
        at,
      );
      const saved = (await q.loadTicket(tx, actor.companyId, id))!;
      raise({
        type: "ticket.saved",
        companyId: actor.companyId,
        ticket: saved,
        previous: { queueId: ticket.queueId, userId: ticket.userId, status: ticket.status },
        ...(message ? { automaticMessage: message } : {}),
      });
      return saved;
    });
  } catch (err) {
    if (dbErrorCode(err) === "23505")
      return otherOpenTicket(ctx, actor.companyId, ticket.contactId, patch.whatsappId ?? ticket.whatsappId);
    throw err;
  }
  // The answer shows the automatic message as the ticket's last one, as its agent's list does.
  return message ? (await q.loadTicket(ctx.db, actor.companyId, id))! : updated;
}

/** Each command by the name `commandOf` gives it. */
export const TICKET_COMMANDS = {
  accept: acceptTicket,
  resolve: resolveTicket,
  return: returnTicket,
  reopen: reopenTicket,
  transfer: transferTicket,
} satisfies Record<TicketCommand, unknown>;

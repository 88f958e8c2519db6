import { DEFAULT_HISTORY_IMPORT_DAYS, MAX_HISTORY_IMPORT_DAYS, type TicketDTO } from "@atende/contracts";
import type { ChannelEvent, ConnectionInfo, InboundMessage } from "../../channels/provider.js";
import { inTransaction } from "../../events/bus.js";
import { companySetting } from "../settings/queries.js";
import { loadTickets } from "../tickets/queries.js";
import { contactUpkeep } from "./contacts.js";
import {
  type HistoryMessageRow,
  insertHistoryMessages,
  latestTicketOf,
  liveTicketForHistory,
  storedWids,
} from "./historyQueries.js";
import { enqueueMediaDownload } from "./mediaJob.js";
import { type ContactKey, saveContact } from "./queries.js";
import { MEDIA_TYPE_BY_KIND } from "./kinds.js";
import type { InboundDeps } from "./service.js";

const DAY_MS = 86_400_000;

/**
 * A connection's history, as the phone sends it after a link (WhatsApp's history sync): what
 * customers wrote while the number was unlinked, and the conversations around it. Apart from the
 * live path, on purpose:
 * - bounded: only the company's `historyImportDays` last days (groups only when it shows groups);
 * - once: a message stored already (by the live path, or an earlier import of the same history)
 *   is left as it is, so importing the same history again changes nothing;
 * - into the right ticket: the contact's live ticket; else its latest one for what is older than
 *   that ticket's last change (the conversation it belongs to), and a new pending ticket, as the
 *   live path opens one, for what came after (someone has to see it);
 * - quietly: no message is announced as new (no sound, no notification, no bot turn, no campaign
 *   answer, no outbound webhook); a customer's message counts as unread only when nothing the
 *   company sent followed it. The agents' lists hear the tickets it wrote to, and the connections
 *   screen the count imported so far (`whatsapp.history`).
 */
export function historyImport(deps: InboundDeps) {
  const { db, bus, now, log } = deps;
  const { identityOf, withIdentity } = contactUpkeep(deps);
  /** Messages imported so far by the run under way, per connection. */
  const runs = new Map<number, number>();

  async function daysOf(companyId: number): Promise<number> {
    const saved = await companySetting(db, companyId, "historyImportDays");
    const days = saved === undefined ? DEFAULT_HISTORY_IMPORT_DAYS : Number(saved);
    return Number.isInteger(days) && days >= 0 ? Math.min(days, MAX_HISTORY_IMPORT_DAYS) : 0;
  }

  return async function importHistory(
    connection: ConnectionInfo,
    event: Extract<ChannelEvent, { type: "history" }>,
  ): Promise<void> {
    const { companyId } = connection;
    const days = await daysOf(companyId);
    if (days === 0) return;
    const { count, ticketIds } = await importMessages(connection, event.messages, days);
    const imported = (runs.get(connection.id) ?? 0) + count;
    if (event.done) runs.delete(connection.id);
    else runs.set(connection.id, imported);
    if (count > 0) log.info({ whatsappId: connection.id, count, imported }, "history imported");
    const tickets: TicketDTO[] = ticketIds.length ? await loadTickets(db, companyId, ticketIds) : [];
    await bus.publish([
      {
        type: "whatsapp.history",
        companyId,
        progress: { whatsappId: connection.id, imported, running: !event.done, at: now().toISOString() },
        tickets,
      },
    ]);
  };

  async function importMessages(connection: ConnectionInfo, messages: InboundMessage[], days: number) {
    const { companyId } = connection;
    const since = now().getTime() - days * DAY_MS;
    const skipGroups = (await companySetting(db, companyId, "CheckMsgIsGroup")) === "enabled";
    const byId = new Map<string, InboundMessage>();
    for (const m of messages) {
      if (m.timestamp.getTime() < since || m.kind === "reaction") continue;
      if ((m.chat.isGroup && skipGroups) || (!m.chat.number && !m.chat.lid)) continue;
      byId.set(m.id, m);
    }
    const known = await storedWids(db, companyId, connection.id, [...byId.keys()]);
    const chats = new Map<string, InboundMessage[]>();
    for (const m of byId.values()) {
      if (known.has(m.id)) continue;
      const key = m.chat.number ? `n:${m.chat.number}` : `l:${m.chat.lid}`;
      chats.set(key, [...(chats.get(key) ?? []), m]);
    }
    let count = 0;
    const ticketIds = new Set<number>();
    for (const chat of chats.values()) {
      chat.sort((a, b) => a.timestamp.getTime() - b.timestamp.getTime());
      const done = await importChat(connection, chat);
      count += done.count;
      done.ticketIds.forEach((id) => ticketIds.add(id));
    }
    return { count, ticketIds: [...ticketIds] };
  }

  /** One chat's messages, oldest first, into its contact's tickets, in one transaction. */
  async function importChat(connection: ConnectionInfo, chat: InboundMessage[]) {
    const { companyId } = connection;
    // The address that says most (a message may carry the LID beside the number, another not).
    const address = chat.find((m) => m.chat.lid && m.chat.number)?.chat ?? chat.at(-1)!.chat;
    const named = chat.findLast((m) => !m.fromMe && m.pushName)?.pushName?.trim();
    const at = now();
    const key: ContactKey = address.number ? "number" : "lid";
    const values = {
      companyId,
      name: (!address.isGroup && named) || address.number || address.lid || "?",
      number: address.number,
      lid: address.lid ?? null,
      isGroup: address.isGroup,
      at: at.toISOString(),
    };
    return withIdentity(identityOf(connection, address), () =>
      inTransaction(db, bus, async (tx) => {
        const { contact } = await saveContact(tx, key, values);
        const current = await latestTicketOf(tx, companyId, contact.id, connection.id);
        const closed = current?.status === "closed" ? current : null;
        const older = closed ? chat.filter((m) => m.timestamp <= closed.updatedAt) : [];
        const newer = closed ? chat.filter((m) => m.timestamp > closed.updatedAt) : chat;
        const target = { companyId, whatsappId: connection.id, contactId: contact.id, at };
        const ticketIds: number[] = [];
        let count = 0;
        if (closed && older.length) {
          // Part of the conversation that ticket closed: answered or not, it is history there.
          count += await store(tx, { ...target, ticketId: closed.id }, older, () => false);
          ticketIds.push(closed.id);
        }
        if (newer.length) {
          const answeredUntil = Math.max(
            (!closed && current?.lastFromMeAt?.getTime()) || 0,
            ...newer.filter((m) => m.fromMe).map((m) => m.timestamp.getTime()),
          );
          const unread = (m: InboundMessage) => !m.fromMe && m.timestamp.getTime() > answeredUntil;
          const last = newer.at(-1)!;
          const ticketId = await liveTicketForHistory(tx, {
            companyId,
            contactId: contact.id,
            whatsappId: connection.id,
            isGroup: address.isGroup,
            lastMessage: previewOf(last),
            unread: newer.filter(unread).length,
            firstAt: newer[0]!.timestamp,
            lastAt: last.timestamp,
          });
          count += await store(tx, { ...target, ticketId }, newer, unread);
          ticketIds.push(ticketId);
        }
        return { count, ticketIds };
      }),
    );
  }

  /** Stores messages into one ticket, their files queued for download; answers how many were new. */
  async function store(
    tx: Parameters<typeof insertHistoryMessages>[0],
    target: Parameters<typeof insertHistoryMessages>[1],
    chat: InboundMessage[],
    unread: (m: InboundMessage) => boolean,
  ): Promise<number> {
    const maxBytes = deps.mediaMaxBytes ?? deps.media.maxBytes;
    const rows: HistoryMessageRow[] = chat.map((m) => ({
      wid: m.id,
      body: m.body,
      fromMe: m.fromMe,
      read: !unread(m),
      ack: m.fromMe ? 2 : 0,
      mediaType: MEDIA_TYPE_BY_KIND[m.kind],
      mediaMime: m.media?.mimetype ?? null,
      mediaName: m.media?.filename ?? null,
      mediaStatus: !m.media
        ? null
        : !m.media.ref
          ? "failed"
          : m.media.size !== undefined && m.media.size > maxBytes
            ? "tooLarge"
            : "pending",
      participant: participantOf(m),
      isForwarded: m.isForwarded ?? false,
      quotedWid: m.quotedId ?? null,
      createdAt: m.timestamp.toISOString(),
    }));
    const stored = await insertHistoryMessages(tx, target, rows);
    const byWid = new Map(chat.map((m, i) => [m.id, { m, row: rows[i]! }]));
    for (const { id, wid } of stored) {
      const { m, row } = byWid.get(wid)!;
      if (row.mediaStatus === "pending" && m.media?.ref)
        await enqueueMediaDownload(tx, target.companyId, id, {
          whatsappId: target.whatsappId,
          ref: m.media.ref,
          size: m.media.size,
        });
    }
    return stored.length;
  }
}

/** The ticket list's preview of a message, as the live path writes it. */
function previewOf(m: InboundMessage): string {
  return (m.body || m.media?.filename || `[${MEDIA_TYPE_BY_KIND[m.kind]}]`).slice(0, 255);
}

/** A group message's author as the live path stores it: "name · number" (or the LID). */
function participantOf(m: InboundMessage): string | null {
  const p = m.participant;
  return p ? [p.name, p.number || p.lid].filter(Boolean).join(" · ") : null;
}

import type { MessageDTO } from "@atende/contracts";
import { dayOf } from "../../../i18n/format";

/**
 * One row of the message list: a message, with what sits above it. The dividers ride on the message
 * they introduce rather than being rows of their own, so every row is keyed by a message: when older
 * pages arrive above, the row the reader is looking at keeps its key and the list can hold it still.
 */
export interface ChatRow {
  key: string;
  message: MessageDTO;
  /** First of a run from one sender: the bubble draws its tail and a gap above. */
  firstOfGroup: boolean;
  /** The day (yyyy-MM-dd) this message opens: a date divider above it. */
  day: string | null;
  /** One ticket (conversation) ended before this message and this one's started. */
  ticketChange: { endedAt: string; startedAt: string } | null;
}

/** The calendar day of an instant on the company's clock, as yyyy-MM-dd. */
export const localDay = (value: string): string => dayOf(value);

/** Who sent it: the contact, or one agent (a bot counts as its own sender). */
function senderOf(message: MessageDTO): string {
  if (!message.fromMe) return "contact";
  return message.isBot ? "bot" : `agent:${message.userId ?? 0}`;
}

/**
 * Rows for the list: a day divider where the day changes, a divider where one ticket (conversation)
 * ended and the next started, and the first message of each run from one sender marked, so the
 * bubble draws its tail and a gap above it.
 */
export function buildRows(messages: MessageDTO[]): ChatRow[] {
  const rows: ChatRow[] = [];
  let previous: MessageDTO | undefined;
  let previousDay = "";
  for (const message of messages) {
    const day = localDay(message.createdAt);
    const newDay = !previous || previousDay !== day;
    const newTicket = previous !== undefined && previous.ticketId !== message.ticketId;
    rows.push({
      key: `m-${message.id}`,
      message,
      firstOfGroup: newDay || newTicket || !previous || senderOf(previous) !== senderOf(message),
      day: newDay ? day : null,
      ticketChange: newTicket ? { endedAt: previous!.createdAt, startedAt: message.createdAt } : null,
    });
    previous = message;
    previousDay = day;
  }
  return rows;
}

/** Location messages carry a maps link, and the place's name on the next line. */
export function parseLocation(
  body: string,
): { latitude: number; longitude: number; name: string; url: string } | null {
  const match = /q=(-?\d+(?:\.\d+)?),(-?\d+(?:\.\d+)?)/.exec(body);
  if (!match) return null;
  const [firstLine = "", ...rest] = body.split("\n");
  return {
    latitude: Number(match[1]),
    longitude: Number(match[2]),
    name: rest.join(" ").trim(),
    url: firstLine.trim(),
  };
}

/** A contact card: the body is the shown name, or the vCard itself. */
export function parseContactCard(body: string): { name: string; numbers: string[] } {
  if (!/BEGIN:VCARD/i.test(body)) return { name: body.trim(), numbers: [] };
  const name = /^FN[;:](.*)$/im.exec(body)?.[1]?.split(":").pop()?.trim() ?? "";
  const numbers = [...body.matchAll(/^TEL[^:\n]*:(.*)$/gim)].map((m) => (m[1] ?? "").trim()).filter(Boolean);
  return { name, numbers };
}

/** Brazilian numbers (12 or 13 digits) as +55 (11) 98765-4321; others as +digits. */
export function formatPhone(number: string | null | undefined): string {
  const digits = (number ?? "").replace(/\D/g, "");
  if (!digits) return "";
  if (digits.startsWith("55") && (digits.length === 12 || digits.length === 13)) {
    const local = digits.slice(4);
    const split = local.length - 4;
    return `+55 (${digits.slice(2, 4)}) ${local.slice(0, split)}-${local.slice(split)}`;
  }
  return `+${digits}`;
}

/** Initials for an avatar without a picture. */
export function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  const letters = parts.length > 1 ? [parts[0]![0], parts[parts.length - 1]![0]] : [parts[0]?.[0]];
  return letters.join("").toUpperCase() || "?";
}

/** An agent's signed message starts with a bold "*Name:*" line; editing keeps it and changes the rest. */
export function splitSignature(body: string): { signature: string; text: string } {
  const match = /^(\*[^*\n]{1,80}:\*\n)([\s\S]*)$/.exec(body);
  return match ? { signature: match[1]!, text: match[2]! } : { signature: "", text: body };
}

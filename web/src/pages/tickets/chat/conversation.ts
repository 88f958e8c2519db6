import type { MessageDTO, MessagesPage } from "@atende/contracts";
import type { InfiniteData } from "@tanstack/react-query";

export type MessagePages = InfiniteData<MessagesPage, number>;

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

const pad = (n: number) => String(n).padStart(2, "0");

/** The local calendar day of an instant, as yyyy-MM-dd. */
export function localDay(value: string): string {
  const date = new Date(value);
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** Who sent it: the contact, or one agent (a bot counts as its own sender). */
function senderOf(message: MessageDTO): string {
  if (!message.fromMe) return "contact";
  return message.isBot ? "bot" : `agent:${message.userId ?? 0}`;
}

/** The conversation, oldest first, each message once, without reactions (they sit under their target). */
export function flattenPages(data: MessagePages | undefined): MessageDTO[] {
  if (!data) return [];
  const byId = new Map<number, MessageDTO>();
  // Pages come newest first; a later page may repeat messages after new ones shifted the offsets.
  for (let p = data.pages.length - 1; p >= 0; p--) {
    for (const message of data.pages[p]!.messages) {
      if (message.mediaType !== "reactionMessage") byId.set(message.id, message);
    }
  }
  // Thousands of messages when the agent has scrolled far back: each date is read once.
  const timed = [...byId.values()].map((message) => ({ at: Date.parse(message.createdAt), message }));
  timed.sort((a, b) => a.at - b.at || a.message.id - b.message.id);
  return timed.map((entry) => entry.message);
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

/** Adds the message to the newest page, or replaces it where it is; false when it was not there before. */
export function upsertInPages(
  data: MessagePages,
  message: MessageDTO,
): { data: MessagePages; added: boolean } {
  const listed = data.pages.some((page) => page.messages.some((m) => m.id === message.id));
  if (listed) {
    return {
      added: false,
      data: {
        ...data,
        pages: data.pages.map((page) =>
          page.messages.some((m) => m.id === message.id)
            ? { ...page, messages: page.messages.map((m) => (m.id === message.id ? message : m)) }
            : page,
        ),
      },
    };
  }
  const [newest, ...older] = data.pages;
  if (!newest) return { data, added: false };
  return {
    added: true,
    data: {
      ...data,
      pages: [{ ...newest, messages: [...newest.messages, message], count: newest.count + 1 }, ...older],
    },
  };
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

import { ACK } from "@atende/contracts";
import { normalizeNumber } from "../numbers.js";
import type { ChannelEvent, InboundMedia, InboundMessage } from "../provider.js";
import {
  type CloudChangeValue,
  type CloudMedia,
  type CloudMessage,
  type CloudSharedContact,
  type CloudStatus,
  cloudChangeSchema,
  cloudChangeValueSchema,
  cloudMessageSchema,
  cloudStatusSchema,
  cloudWebhookSchema,
} from "./payload.js";

/**
 * Meta's "messages" webhook → ChannelEvents, in the payload's order. Pure: nothing is fetched here;
 * a media's `download()` calls `fetchMedia` when the pipeline asks for the bytes. Anything not
 * understood (other fields, unknown message types, malformed items) is skipped, never thrown.
 */

export interface CloudEvent {
  /** The business phone number the event belongs to (metadata.phone_number_id). */
  phoneNumberId: string;
  event: ChannelEvent;
}

/** Fetches a media's bytes by its Cloud media id (media info, then download, with the connection's token). */
export type CloudMediaFetcher = (mediaId: string) => Promise<Buffer>;

type MessageContent = Pick<InboundMessage, "kind" | "body"> &
  Partial<Pick<InboundMessage, "media" | "location" | "vcard" | "reaction">>;

type CloudContact = NonNullable<CloudChangeValue["contacts"]>[number];

const ACK_BY_STATUS = new Map<string, number>([
  ["sent", ACK.serverAck],
  ["delivered", ACK.delivered],
  ["read", ACK.read],
  ["played", ACK.played],
]);

export function mapCloudWebhook(body: unknown, fetchMedia: CloudMediaFetcher): CloudEvent[] {
  const envelope = cloudWebhookSchema.safeParse(body);
  if (!envelope.success) return [];
  const events: CloudEvent[] = [];
  for (const entry of envelope.data.entry) {
    for (const rawChange of entry.changes) {
      const change = cloudChangeSchema.safeParse(rawChange);
      if (!change.success || (change.data.field !== undefined && change.data.field !== "messages")) continue;
      const value = cloudChangeValueSchema.safeParse(change.data.value);
      if (value.success) events.push(...mapChangeValue(value.data, fetchMedia));
    }
  }
  return events;
}

function mapChangeValue(value: CloudChangeValue, fetchMedia: CloudMediaFetcher): CloudEvent[] {
  const events: ChannelEvent[] = [];
  for (const raw of value.messages ?? []) {
    const parsed = cloudMessageSchema.safeParse(raw);
    const message = parsed.success ? toInboundMessage(parsed.data, value.contacts ?? [], fetchMedia) : null;
    if (message) events.push({ type: "message", message });
  }
  for (const raw of value.statuses ?? []) {
    const parsed = cloudStatusSchema.safeParse(raw);
    const ack = parsed.success ? toAckEvent(parsed.data) : null;
    if (ack) events.push(ack);
  }
  return events.map((event) => ({ phoneNumberId: value.metadata.phone_number_id, event }));
}

export function toInboundMessage(
  message: CloudMessage,
  contacts: CloudContact[],
  fetchMedia: CloudMediaFetcher,
): InboundMessage | null {
  const content = messageContent(message, fetchMedia);
  const seconds = Number(message.timestamp);
  const number = normalizeNumber(message.from);
  if (!content || !Number.isFinite(seconds) || !number) return null;
  const sender =
    contacts.find((c) => c.wa_id === message.from) ?? (contacts.length === 1 ? contacts[0] : undefined);
  const pushName = sender?.profile?.name;
  const context = message.context;
  return {
    id: message.id,
    chat: { number, isGroup: false },
    fromMe: false,
    ...(pushName ? { pushName } : {}),
    timestamp: new Date(seconds * 1000),
    ...content,
    ...(context?.id ? { quotedId: context.id } : {}),
    ...(context?.forwarded || context?.frequently_forwarded ? { isForwarded: true } : {}),
  };
}

function messageContent(message: CloudMessage, fetchMedia: CloudMediaFetcher): MessageContent | null {
  switch (message.type) {
    case "text":
      return message.text ? { kind: "text", body: message.text.body } : null;
    case "image":
    case "audio":
    case "video":
    case "sticker":
    case "document": {
      const media = message[message.type];
      if (!media) return null;
      // A document without caption reads as its file name, as WhatsApp shows it.
      const body = media.caption ?? (message.type === "document" ? (media.filename ?? "") : "");
      return { kind: message.type, body, media: inboundMedia(media, fetchMedia) };
    }
    case "location": {
      const place = message.location;
      if (!place) return null;
      const link = `https://maps.google.com/maps?q=${place.latitude},${place.longitude}`;
      return {
        kind: "location",
        body: [link, place.name, place.address].filter(Boolean).join("\n"),
        location: {
          latitude: place.latitude,
          longitude: place.longitude,
          ...(place.name ? { name: place.name } : {}),
        },
      };
    }
    case "contacts": {
      const shared = message.contacts ?? [];
      if (shared.length === 0) return null;
      return {
        kind: "contact",
        body: shared.map(contactName).join(", "),
        vcard: shared.map(toVcard).join("\n"),
      };
    }
    case "reaction": {
      if (!message.reaction) return null;
      const emoji = message.reaction.emoji ?? "";
      return { kind: "reaction", body: emoji, reaction: { targetId: message.reaction.message_id, emoji } };
    }
    case "interactive": {
      const title = message.interactive?.button_reply?.title ?? message.interactive?.list_reply?.title;
      return title !== undefined ? { kind: "text", body: title } : null;
    }
    case "button":
      return message.button ? { kind: "text", body: message.button.text } : null;
    default:
      return null;
  }
}

function inboundMedia(media: CloudMedia, fetchMedia: CloudMediaFetcher): InboundMedia {
  return {
    mimetype: media.mime_type ?? "application/octet-stream",
    ...(media.filename ? { filename: media.filename } : {}),
    // The media job downloads it by id later (the provider's downloadMedia), size checked first.
    ref: { mediaId: media.id },
    download: () => fetchMedia(media.id),
  };
}

function contactName(contact: CloudSharedContact): string {
  const name = contact.name;
  const composed = [name?.first_name, name?.last_name].filter(Boolean).join(" ");
  return name?.formatted_name || composed || contact.phones?.[0]?.phone || "";
}

/** A vCard 3.0 of a shared contact, with WhatsApp's `waid` on each phone that has one. */
function toVcard(contact: CloudSharedContact): string {
  const name = contact.name;
  const lines = [
    "BEGIN:VCARD",
    "VERSION:3.0",
    `N:${vcardText(name?.last_name)};${vcardText(name?.first_name)};;;`,
    `FN:${vcardText(contactName(contact))}`,
  ];
  if (contact.org?.company) lines.push(`ORG:${vcardText(contact.org.company)}`);
  for (const phone of contact.phones ?? []) {
    if (!phone.phone && !phone.wa_id) continue;
    const waid = phone.wa_id ? `;waid=${phone.wa_id.replace(/\D/g, "")}` : "";
    const type = (phone.type ?? "CELL").replace(/[^\w-]/g, "");
    lines.push(`TEL;type=${type}${waid}:${vcardText(phone.phone ?? `+${phone.wa_id}`)}`);
  }
  for (const email of contact.emails ?? []) if (email.email) lines.push(`EMAIL:${vcardText(email.email)}`);
  lines.push("END:VCARD");
  return lines.join("\n");
}

/** A value escaped as vCard text: the customer typed it, so it must not add lines or fields. */
function vcardText(value: string | undefined): string {
  return (value ?? "").replace(/[\\;,]/g, (c) => `\\${c}`).replace(/\r?\n|\r/g, "\\n");
}

/**
 * sent/delivered/read move the message's ack forward. "failed" carries the error with ack
 * "pending": acks only move forward in the pipeline, so the tick stays where it was.
 */
export function toAckEvent(status: CloudStatus): ChannelEvent | null {
  if (status.status === "failed") {
    return { type: "ack", id: status.id, ack: ACK.pending, error: describeStatusErrors(status.errors) };
  }
  const ack = ACK_BY_STATUS.get(status.status);
  return ack === undefined ? null : { type: "ack", id: status.id, ack };
}

/** "131047: Re-engagement message — Message failed to send because …", one per error. */
function describeStatusErrors(errors: CloudStatus["errors"]): string {
  const described = (errors ?? []).map((e) => {
    const head = `${e.code ?? "?"}: ${e.title ?? e.message ?? "failed"}`;
    const details = e.error_data?.details;
    return details ? `${head} — ${details}` : head;
  });
  return described.join("; ") || "failed";
}

import { ACK } from "@atende/contracts";
import { normalizeNumber } from "../numbers.js";
import { errCodeOfGraphCode } from "./graphErrors.js";
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
 * a media's `download()` calls `fetchMedia` when the pipeline asks for the bytes. Nothing a customer
 * sends is dropped in silence: a message type we do not know (or one Meta calls "unsupported")
 * becomes a placeholder message naming its type. Other fields and malformed envelopes are skipped,
 * never thrown.
 */

export interface CloudEvent {
  /** The business phone number the event belongs to (metadata.phone_number_id). */
  phoneNumberId: string;
  event: ChannelEvent;
  /** An ack's biz_opaque_callback_data: our own id of the message (see graph.ts). */
  callbackData?: string;
  /** A "system" message's change of the customer's ids, applied after the message is stored. */
  identityChange?: CloudIdentityChange;
}

/**
 * A "system" message: the customer changed number (user_changed_number) or business-scoped user id
 * (user_changed_user_id). The contact known by `from` is the same person under the new ids.
 */
export interface CloudIdentityChange {
  from: { number: string; userId?: string };
  number?: string;
  userId?: string;
}

/** The body of a message whose type the adapter cannot show. */
export const unsupportedBody = (type: string) => `[mensagem não suportada: ${type}]`;

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
  const phoneNumberId = value.metadata.phone_number_id;
  const events: CloudEvent[] = [];
  for (const raw of value.messages ?? []) {
    const parsed = cloudMessageSchema.safeParse(raw);
    if (!parsed.success) continue;
    const message = toInboundMessage(parsed.data, value.contacts ?? [], fetchMedia);
    const identityChange = identityChangeOf(parsed.data);
    if (message)
      events.push({
        phoneNumberId,
        event: { type: "message", message },
        ...(identityChange ? { identityChange } : {}),
      });
  }
  for (const raw of value.statuses ?? []) {
    const parsed = cloudStatusSchema.safeParse(raw);
    const ack = parsed.success ? toAckEvent(parsed.data) : null;
    const callbackData = parsed.success ? parsed.data.biz_opaque_callback_data : undefined;
    if (ack) events.push({ phoneNumberId, event: ack, ...(callbackData ? { callbackData } : {}) });
  }
  return events;
}

function identityChangeOf(message: CloudMessage): CloudIdentityChange | null {
  const system = message.system;
  if (message.type !== "system" || !system) return null;
  const from = { number: message.from ? normalizeNumber(message.from) : "", userId: message.from_user_id };
  if (!from.number && !from.userId) return null;
  const newNumber = normalizeNumber(String(system.wa_id ?? system.new_wa_id ?? ""));
  const change: CloudIdentityChange = {
    from: { number: from.number, ...(from.userId ? { userId: from.userId } : {}) },
    ...(system.type !== "user_changed_user_id" && newNumber ? { number: newNumber } : {}),
    ...(system.user_id ? { userId: system.user_id } : {}),
  };
  return change.number || change.userId ? change : null;
}

export function toInboundMessage(
  message: CloudMessage,
  contacts: CloudContact[],
  fetchMedia: CloudMediaFetcher,
): InboundMessage | null {
  const content = messageContent(message, fetchMedia) ?? {
    kind: "text",
    body: unsupportedBody(message.type),
  };
  const seconds = Number(message.timestamp);
  const number = message.from ? normalizeNumber(message.from) : "";
  const sender =
    contacts.find(
      (c) =>
        (message.from !== undefined && c.wa_id === message.from) ||
        (message.from_user_id !== undefined && c.user_id === message.from_user_id),
    ) ?? (contacts.length === 1 ? contacts[0] : undefined);
  // The business-scoped user id: how a customer who withholds the number is known and answered.
  const userId = message.from_user_id ?? sender?.user_id;
  if (!Number.isFinite(seconds) || (!number && !userId)) return null;
  const pushName = sender?.profile?.name;
  const context = message.context;
  const referral = referralLine(message.referral);
  return {
    id: message.id,
    chat: { number, isGroup: false, ...(userId ? { lid: userId } : {}) },
    fromMe: false,
    ...(pushName ? { pushName } : {}),
    timestamp: new Date(seconds * 1000),
    ...content,
    ...(referral ? { body: content.body ? `${referral}\n${content.body}` : referral } : {}),
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
      const interactive = message.interactive;
      const title = interactive?.button_reply?.title ?? interactive?.list_reply?.title;
      if (title !== undefined) return { kind: "text", body: title };
      if (interactive?.nfm_reply) return { kind: "text", body: flowReply(interactive.nfm_reply) };
      return { kind: "text", body: unsupportedBody(`interactive/${interactive?.type ?? "?"}`) };
    }
    case "button":
      return message.button ? { kind: "text", body: message.button.text } : null;
    case "order":
      return message.order ? { kind: "text", body: orderText(message.order) } : null;
    case "system":
      return { kind: "text", body: message.system?.body ?? "[o cliente mudou de número]" };
    case "request_welcome":
      // The customer opened the chat for the first time and has not written yet.
      return { kind: "text", body: "[o cliente abriu a conversa pela primeira vez]" };
    case "unsupported": {
      const detail = message.unsupported?.type ?? message.errors?.[0]?.error_data?.details;
      return { kind: "text", body: unsupportedBody(detail ?? "unsupported") };
    }
    default:
      return null;
  }
}

/** "[pedido] 2 × SKU-1 (10,00 BRL)…" and the customer's note: an order as the agent reads it. */
function orderText(order: NonNullable<CloudMessage["order"]>): string {
  const items = (order.product_items ?? []).map((item) => {
    const price =
      item.item_price !== undefined ? ` (${item.item_price} ${item.currency ?? ""})`.trimEnd() : "";
    return `${item.quantity ?? 1} × ${item.product_retailer_id}${price}`;
  });
  return ["[pedido]", ...items, order.text ?? ""].filter(Boolean).join("\n");
}

/** A WhatsApp Flow's answer: its body, then each field the customer filled ("name: value"). */
function flowReply(reply: NonNullable<NonNullable<CloudMessage["interactive"]>["nfm_reply"]>): string {
  let fields: string[] = [];
  try {
    const answers = JSON.parse(reply.response_json ?? "{}") as Record<string, unknown>;
    fields = Object.entries(answers)
      .filter(([key]) => key !== "flow_token")
      .map(([key, value]) => `${key}: ${typeof value === "string" ? value : JSON.stringify(value)}`);
  } catch {
    // An answer that is not JSON: the body alone.
  }
  return [reply.body ?? reply.name ?? "[formulário]", ...fields].join("\n");
}

/** The ad (or post) a customer came from, as the first line of their message. */
function referralLine(referral: CloudMessage["referral"]): string {
  if (!referral) return "";
  const what = [referral.headline, referral.body].filter(Boolean).join(" — ");
  return ["[anúncio]", what, referral.source_url].filter(Boolean).join(" ");
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

/**
 * "ERR_WAPP_24H_WINDOW: 131047: Re-engagement message — Message failed to send because …", one per
 * error. A code the agent is shown by name (131047, the 132000 series) leads, as a failed send's
 * error does (`${code}: ${message}`), so the screen offers the same way out for both.
 */
function describeStatusErrors(errors: CloudStatus["errors"]): string {
  const described = (errors ?? []).map((e) => {
    const head = `${e.code ?? "?"}: ${e.title ?? e.message ?? "failed"}`;
    const details = e.error_data?.details;
    return details ? `${head} — ${details}` : head;
  });
  const named = (errors ?? []).map((e) => errCodeOfGraphCode(e.code)).find(Boolean);
  const text = described.join("; ") || "failed";
  return named ? `${named}: ${text}` : text;
}

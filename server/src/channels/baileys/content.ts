import type { proto } from "@whiskeysockets/baileys";
import type { InboundKind, InboundMessage } from "../provider.js";

/** What one WhatsApp message content says, before the envelope (ids, addresses, time) is added. */
export interface ContentParts {
  kind: InboundKind;
  body: string;
  /** Media to download; the bytes are fetched later, through the message envelope. */
  media?: { mimetype: string; filename?: string };
  location?: InboundMessage["location"];
  vcard?: string;
  reaction?: InboundMessage["reaction"];
  contextInfo?: proto.IContextInfo | null;
}

/**
 * Reads an unwrapped message content (ephemeral / view-once / document-with-caption already
 * removed by Baileys' normalizeMessageContent). Null for content Atende does not show: protocol
 * messages, polls, key distribution, and kinds the inbox has no place for.
 */
export function readContent(m: proto.IMessage): ContentParts | null {
  if (m.conversation) return { kind: "text", body: m.conversation };
  if (m.extendedTextMessage) {
    const { text, contextInfo } = m.extendedTextMessage;
    return { kind: "text", body: text ?? "", contextInfo };
  }
  if (m.imageMessage) return withMedia("image", m.imageMessage, "image/jpeg");
  if (m.videoMessage) return withMedia("video", m.videoMessage, "video/mp4");
  if (m.ptvMessage) return withMedia("video", m.ptvMessage, "video/mp4");
  if (m.audioMessage) return withMedia("audio", m.audioMessage, "audio/ogg; codecs=opus");
  if (m.documentMessage) return withMedia("document", m.documentMessage, "application/octet-stream");
  if (m.stickerMessage) return withMedia("sticker", m.stickerMessage, "image/webp");
  if (m.locationMessage) return location(m.locationMessage);
  if (m.liveLocationMessage) return location(m.liveLocationMessage);
  if (m.contactMessage) return contact(m.contactMessage);
  if (m.contactsArrayMessage) return contacts(m.contactsArrayMessage);
  if (m.reactionMessage) return reaction(m.reactionMessage);
  return choiceReply(m);
}

/** The text of a message as an edit carries it (text or caption). */
export function textOf(m: proto.IMessage | null | undefined): string {
  if (!m) return "";
  return (
    m.conversation ||
    m.extendedTextMessage?.text ||
    m.imageMessage?.caption ||
    m.videoMessage?.caption ||
    m.documentMessage?.caption ||
    ""
  );
}

type MediaContent = {
  mimetype?: string | null;
  caption?: string | null;
  fileName?: string | null;
  contextInfo?: proto.IContextInfo | null;
};

function withMedia(kind: InboundKind, media: MediaContent, fallbackMimetype: string): ContentParts {
  const parts: ContentParts = {
    kind,
    body: media.caption ?? "",
    media: { mimetype: media.mimetype || fallbackMimetype },
    contextInfo: media.contextInfo,
  };
  if (media.fileName && parts.media) parts.media.filename = media.fileName;
  return parts;
}

function location(m: proto.Message.ILocationMessage | proto.Message.ILiveLocationMessage): ContentParts {
  const latitude = m.degreesLatitude ?? 0;
  const longitude = m.degreesLongitude ?? 0;
  const name = "name" in m && m.name ? m.name : undefined;
  const link = `https://maps.google.com/maps?q=${latitude},${longitude}`;
  return {
    kind: "location",
    body: name ? `${link}\n${name}` : link,
    location: name ? { latitude, longitude, name } : { latitude, longitude },
    contextInfo: m.contextInfo,
  };
}

function contact(m: proto.Message.IContactMessage): ContentParts {
  return { kind: "contact", body: m.displayName ?? "", vcard: m.vcard ?? "", contextInfo: m.contextInfo };
}

function contacts(m: proto.Message.IContactsArrayMessage): ContentParts {
  const list = m.contacts ?? [];
  const names = list.map((c) => c.displayName).filter((n): n is string => !!n);
  return {
    kind: "contact",
    body: m.displayName || names.join(", "),
    vcard: list.map((c) => c.vcard ?? "").join("\n"),
    contextInfo: m.contextInfo,
  };
}

function reaction(m: proto.Message.IReactionMessage): ContentParts | null {
  if (!m.key?.id) return null;
  const emoji = m.text ?? "";
  return { kind: "reaction", body: emoji, reaction: { targetId: m.key.id, emoji } };
}

/** A tap on a button or list row of a bot message: the customer "said" the option's text. */
function choiceReply(m: proto.IMessage): ContentParts | null {
  const button = m.buttonsResponseMessage;
  if (button?.selectedDisplayText) {
    return { kind: "text", body: button.selectedDisplayText, contextInfo: button.contextInfo };
  }
  const template = m.templateButtonReplyMessage;
  if (template?.selectedDisplayText) {
    return { kind: "text", body: template.selectedDisplayText, contextInfo: template.contextInfo };
  }
  const list = m.listResponseMessage;
  if (list?.title) return { kind: "text", body: list.title, contextInfo: list.contextInfo };
  return null;
}

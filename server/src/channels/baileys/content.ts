import { normalizeMessageContent, toNumber, type proto } from "./lib.js";
import type { InboundKind, InboundMessage } from "../provider.js";

/** What one WhatsApp message content says, before the envelope (ids, addresses, time) is added. */
export interface ContentParts {
  kind: InboundKind;
  body: string;
  /**
   * Media to download; the bytes are fetched later, through the message envelope, unless the
   * message carries them itself (`bytes`: a lottie sticker's still picture).
   */
  media?: { mimetype: string; filename?: string; bytes?: Buffer };
  location?: InboundMessage["location"];
  vcard?: string;
  reaction?: InboundMessage["reaction"];
  contextInfo?: proto.IContextInfo | null;
}

/**
 * The content of a message to read: Baileys' normalized one (ephemeral, view-once, an album's
 * picture... unwrapped), and a lottie sticker's own sticker inside its wrapper.
 */
export function contentOf(message: proto.IMessage | null | undefined): proto.IMessage | undefined {
  const content = normalizeMessageContent(message);
  return content?.lottieStickerMessage?.message ?? content;
}

/**
 * Reads an unwrapped message content (ephemeral / view-once / document-with-caption already
 * removed by Baileys' normalizeMessageContent). Polls, events, products and group invites become
 * readable text; a kind Atende does not know becomes a placeholder naming it, so the agent knows
 * something came. Null only for what carries nothing to show (protocol and key messages, votes and
 * answers WhatsApp encrypts to the poll or event, pins, keep-in-chat).
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
  if (m.stickerMessage) return sticker(m.stickerMessage);
  if (m.locationMessage) return location(m.locationMessage);
  if (m.liveLocationMessage) return location(m.liveLocationMessage);
  if (m.contactMessage) return contact(m.contactMessage);
  if (m.contactsArrayMessage) return contacts(m.contactsArrayMessage);
  if (m.reactionMessage) return reaction(m.reactionMessage);
  const poll =
    m.pollCreationMessage ?? m.pollCreationMessageV2 ?? m.pollCreationMessageV3 ?? m.pollCreationMessageV5;
  if (poll) return text(pollText(poll), poll.contextInfo);
  if (m.eventMessage) return text(eventText(m.eventMessage), m.eventMessage.contextInfo);
  if (m.productMessage) return text(productText(m.productMessage), m.productMessage.contextInfo);
  if (m.groupInviteMessage)
    return text(groupInviteText(m.groupInviteMessage), m.groupInviteMessage.contextInfo);
  return choiceReply(m) ?? unsupported(m);
}

/**
 * Fields of a message that carry no content of their own: metadata riding beside the content,
 * protocol messages (read apart), and updates WhatsApp encrypts to an earlier message (a poll vote,
 * an event answer, an encrypted reaction or comment) that Atende does not decrypt.
 */
const NOTHING_TO_SHOW = new Set([
  "messageContextInfo",
  "senderKeyDistributionMessage",
  "fastRatchetKeySenderKeyDistributionMessage",
  "protocolMessage",
  "reactionMessage",
  "encReactionMessage",
  "pollUpdateMessage",
  "encEventResponseMessage",
  "encCommentMessage",
  "secretEncryptedMessage",
  "keepInChatMessage",
  "pinInChatMessage",
  "stickerSyncRmrMessage",
  "placeholderMessage",
  "messageHistoryBundle",
  "messageHistoryNotice",
  "editedMessage",
  // An album's header (how many pictures): each picture comes as a message of its own.
  "albumMessage",
]);

/** The placeholder of a message kind the inbox cannot show: "[mensagem não suportada: orderMessage]". */
export function unsupportedText(type: string): string {
  return `[mensagem não suportada: ${type}]`;
}

function unsupported(m: proto.IMessage): ContentParts | null {
  const type = Object.keys(m).find(
    (k) =>
      !NOTHING_TO_SHOW.has(k) &&
      m[k as keyof proto.IMessage] !== null &&
      m[k as keyof proto.IMessage] !== undefined,
  );
  return type ? { kind: "text", body: unsupportedText(type) } : null;
}

function text(body: string, contextInfo: proto.IContextInfo | null | undefined): ContentParts {
  return { kind: "text", body, contextInfo };
}

function pollText(poll: proto.Message.IPollCreationMessage): string {
  const options = (poll.options ?? []).map((o, i) => `${i + 1}. ${o.optionName ?? ""}`);
  const choice = poll.selectableOptionsCount === 1 ? "escolha uma opção" : "escolha uma ou mais opções";
  return [`📊 Enquete: ${poll.name ?? ""}`, ...options, `(${choice})`].join("\n");
}

function eventText(event: proto.Message.IEventMessage): string {
  const lines = [`📅 Evento: ${event.name ?? ""}`];
  if (event.isCanceled) lines[0] += " (cancelado)";
  if (event.description) lines.push(event.description);
  const start = toNumber(event.startTime ?? 0);
  if (start) lines.push(`Início: ${whenUtc(start)}`);
  const end = toNumber(event.endTime ?? 0);
  if (end) lines.push(`Fim: ${whenUtc(end)}`);
  const place = [event.location?.name, event.location?.address].filter(Boolean).join(", ");
  if (place) lines.push(`Local: ${place}`);
  if (event.joinLink) lines.push(event.joinLink);
  return lines.join("\n");
}

/** A WhatsApp timestamp (seconds) as 26/11/2026 14:00 UTC: the provider does not know the company's zone. */
function whenUtc(seconds: number): string {
  const at = new Intl.DateTimeFormat("pt-BR", {
    timeZone: "UTC",
    day: "2-digit",
    month: "2-digit",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    hour12: false,
  }).format(new Date(seconds * 1000));
  return `${at.replace(",", "")} UTC`;
}

function productText(m: proto.Message.IProductMessage): string {
  const product = m.product ?? {};
  const lines = [`🛍️ Produto: ${product.title ?? ""}`];
  if (product.description) lines.push(product.description);
  const price = toNumber(product.salePriceAmount1000 ?? product.priceAmount1000 ?? 0);
  if (price && product.currencyCode) {
    const amount = new Intl.NumberFormat("pt-BR", {
      style: "currency",
      currency: product.currencyCode,
    }).format(price / 1000);
    lines.push(amount);
  }
  if (product.url) lines.push(product.url);
  if (m.body) lines.push(m.body);
  return lines.join("\n");
}

function groupInviteText(m: proto.Message.IGroupInviteMessage): string {
  const lines = [`👥 Convite para o grupo: ${m.groupName ?? ""}`];
  if (m.caption) lines.push(m.caption);
  if (m.inviteCode) lines.push(`https://chat.whatsapp.com/${m.inviteCode}`);
  return lines.join("\n");
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

/**
 * A sticker. An animated lottie one is a WhatsApp-only file (application/was) a browser cannot
 * draw: its still picture, when it carries one, is shown instead.
 */
function sticker(m: proto.Message.IStickerMessage): ContentParts {
  const parts = withMedia("sticker", m, "image/webp");
  if (m.isLottie && m.pngThumbnail?.length)
    parts.media = { mimetype: "image/png", bytes: Buffer.from(m.pngThumbnail) };
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

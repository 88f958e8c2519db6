import {
  isJidGroup,
  normalizeMessageContent,
  proto,
  toNumber,
  type WAMessage,
  type WAMessageKey,
} from "./lib.js";
import type { ChannelAddress, ChannelEvent, InboundMessage } from "../provider.js";
import { type ContentParts, contentOf, readContent, textOf } from "./content.js";
import { jidToAddress } from "./jid.js";
import { type MediaDownloader, mediaRefOf } from "./media.js";

/** Fetches a media message's bytes (Baileys' downloadMediaMessage in production, a fake in tests). */
export type { MediaDownloader } from "./media.js";

/**
 * One message from `messages.upsert` as the event Atende cares about: a message (text, media,
 * location, contact, reaction), an edit, a revoke; or null for what has nothing to show (status
 * updates, broadcast lists, newsletters, key distribution, notices, other protocol messages).
 *
 * A message this device could not read is still a message: the customer wrote, and the agent must
 * know it. Baileys hands it with no content: a CIPHERTEXT stub (it could not decrypt it, "waiting
 * for this message"; or it came without content, as the first message from a click-to-WhatsApp ad
 * while the phone was offline), a view-once on a linked device, or WhatsApp's own placeholder. It
 * becomes an "unreadable" placeholder; Baileys' retry (a retry receipt, the phone's placeholder
 * resend) brings the content later under the same id, and the pipeline replaces it in place.
 *
 * Edits and revokes are taken from here only: Baileys also reports them on `messages.update`,
 * and one source keeps each change to one event.
 */
export function mapUpsertedMessage(
  msg: WAMessage,
  download: MediaDownloader,
  /** The chat's other jid when WhatsApp did not send it but Baileys' LID mapping knows it (lid.ts). */
  chatAlt?: string,
): ChannelEvent | null {
  const { key } = msg;
  if (!key.id || !key.remoteJid) return null;
  const chat = jidToAddress(key.remoteJid, key.remoteJidAlt ?? chatAlt);
  if (!chat) return null;
  const content = contentOf(msg.message);
  if (!content) return unreadable(msg) ? messageEvent(msg, chat, UNREADABLE) : null;

  if (content.protocolMessage) return mapProtocolMessage(content.protocolMessage);

  // A group message may decrypt only in part (the sender's key, not the text): still unreadable.
  const parts = readContent(content) ?? (content.placeholderMessage || ciphertext(msg) ? UNREADABLE : null);
  return parts ? messageEvent(msg, chat, parts, download, content) : null;
}

/** The text an unreadable message is stored with (the app shows its own, in the agent's language). */
export const UNREADABLE_TEXT = "Mensagem não pôde ser lida no aparelho. Veja no celular.";
const UNREADABLE: ContentParts = { kind: "unreadable", body: UNREADABLE_TEXT };

/**
 * No content, and not a notice (a group's new subject, a changed security code: stubs of other
 * kinds): a message Baileys could not decrypt, or one WhatsApp sent this device without content.
 */
function unreadable(msg: WAMessage): boolean {
  return ciphertext(msg) || !msg.messageStubType;
}

function ciphertext(msg: WAMessage): boolean {
  return msg.messageStubType === proto.WebMessageInfo.StubType.CIPHERTEXT;
}

function messageEvent(
  msg: WAMessage,
  chat: ChannelAddress,
  parts: ContentParts,
  download?: MediaDownloader,
  content?: proto.IMessage,
): ChannelEvent {
  const key = msg.key as WAMessageKey & { id: string; remoteJid: string };
  const { contextInfo, media, ...shown } = parts;

  const message: InboundMessage = {
    id: key.id,
    chat,
    fromMe: key.fromMe === true,
    timestamp: timestampOf(msg),
    ...shown,
  };
  // On our own messages the push name is the company's: it must not rename the customer.
  if (msg.pushName && !key.fromMe) message.pushName = msg.pushName;
  if (isJidGroup(key.remoteJid) && key.participant) {
    const participant = jidToAddress(key.participant, key.participantAlt);
    if (participant) {
      message.participant = message.pushName ? { ...participant, name: message.pushName } : participant;
    }
  }
  if (contextInfo?.stanzaId) message.quotedId = contextInfo.stanzaId;
  if (contextInfo?.isForwarded) message.isForwarded = true;
  if (media?.bytes) {
    const { bytes, ...file } = media;
    message.media = { ...file, download: () => Promise.resolve(bytes) };
  } else if (media && content && download)
    message.media = { ...media, ...mediaRefOf(key, content), download: () => download(msg) };
  return { type: "message", message };
}

function mapProtocolMessage(protocol: proto.Message.IProtocolMessage): ChannelEvent | null {
  const targetId = protocol.key?.id;
  if (!targetId) return null;
  switch (protocol.type) {
    case proto.Message.ProtocolMessage.Type.REVOKE:
      return { type: "revoke", id: targetId };
    case proto.Message.ProtocolMessage.Type.MESSAGE_EDIT:
      return { type: "edit", id: targetId, body: textOf(normalizeMessageContent(protocol.editedMessage)) };
    default:
      return null;
  }
}

function timestampOf(msg: WAMessage): Date {
  const seconds = toNumber(msg.messageTimestamp);
  return seconds ? new Date(seconds * 1000) : new Date();
}

import {
  isJidGroup,
  normalizeMessageContent,
  proto,
  toNumber,
  type WAMessage,
} from "@whiskeysockets/baileys";
import type { ChannelEvent, InboundMessage } from "../provider.js";
import { contentOf, readContent, textOf } from "./content.js";
import { jidToAddress } from "./jid.js";
import { type MediaDownloader, mediaRefOf } from "./media.js";

/** Fetches a media message's bytes (Baileys' downloadMediaMessage in production, a fake in tests). */
export type { MediaDownloader } from "./media.js";

/**
 * One message from `messages.upsert` as the event Atende cares about: a message (text, media,
 * location, contact, reaction), an edit, a revoke; or null for what has nothing to show (status
 * updates, broadcast lists, newsletters, key distribution, stubs, other protocol messages).
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
  if (!content) return null;

  if (content.protocolMessage) return mapProtocolMessage(content.protocolMessage);

  const parts = readContent(content);
  if (!parts) return null;
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
  } else if (media) message.media = { ...media, ...mediaRefOf(key, content), download: () => download(msg) };
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

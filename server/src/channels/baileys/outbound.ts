import {
  isJidGroup,
  type AnyMessageContent,
  type MiscMessageGenerationOptions,
  type WAMessage,
} from "./lib.js";
import type { OutboundMessage } from "../provider.js";

/**
 * WhatsApp plays voice notes only as Opus in Ogg. An agent's recording is converted to it when it is
 * sent (storage/voice.ts); an audio stored otherwise (an older message) goes as a plain audio.
 */
export const VOICE_NOTE_MIMETYPE = "audio/ogg; codecs=opus";

/** What `sock.sendMessage` is given for an outbound message. */
export function outboundContent(message: OutboundMessage): AnyMessageContent {
  const { media, body } = message;
  const caption = body || undefined;
  if (!media) return { text: body };
  switch (media.kind) {
    case "image":
      return { image: media.data, caption, mimetype: media.mimetype };
    case "video":
      return { video: media.data, caption, mimetype: media.mimetype };
    case "audio":
      // An audio has no caption: a text typed with it is the pipeline's to send apart.
      return media.voiceNote && media.mimetype.toLowerCase().startsWith("audio/ogg")
        ? { audio: media.data, ptt: true, mimetype: VOICE_NOTE_MIMETYPE }
        : { audio: media.data, mimetype: media.mimetype };
    case "sticker":
      return { sticker: media.data, mimetype: media.mimetype };
    case "document":
      return { document: media.data, mimetype: media.mimetype, fileName: media.filename, caption };
  }
}

/**
 * The send options: the id Atende chose; a reply quotes the original. Baileys builds the quote from a message, so one
 * is rebuilt from what Atende kept (id, author side, text); without the text the quote still
 * points at the right message, it only previews empty.
 */
export function sendOptions(
  jid: string,
  message: OutboundMessage,
  /** The author of a group message by its id (a quote of it names them). */
  authorOf: (id: string) => string | undefined = () => undefined,
): MiscMessageGenerationOptions {
  // Atende's id for the message: acks, the echo and a retry after a restart mid-send all match it.
  const options: MiscMessageGenerationOptions = message.id ? { messageId: message.id } : {};
  const quoted =
    message.quoted ?? (message.quotedId ? { id: message.quotedId, fromMe: false, body: "" } : undefined);
  if (!quoted) return options;
  // Someone's message in a group is quoted as theirs (our own: Baileys names us itself).
  const participant = !quoted.fromMe && isJidGroup(jid) ? authorOf(quoted.id) : undefined;
  const quotedMessage: WAMessage = {
    key: { remoteJid: jid, id: quoted.id, fromMe: quoted.fromMe, ...(participant ? { participant } : {}) },
    message: { conversation: quoted.body },
  };
  return { ...options, quoted: quotedMessage };
}

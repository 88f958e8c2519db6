import type { InboundMessage } from "../../channels/provider.js";
import { UNREADABLE } from "./placeholders.js";

/** The messages table's mediaType of each kind of inbound message (the spec's names). */
export const MEDIA_TYPE_BY_KIND: Record<InboundMessage["kind"], string> = {
  text: "chat",
  image: "image",
  audio: "audio",
  video: "video",
  document: "application",
  sticker: "sticker",
  location: "locationMessage",
  contact: "vcard",
  reaction: "reactionMessage",
  unreadable: UNREADABLE,
};

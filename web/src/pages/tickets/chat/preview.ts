import type { MediaType } from "@atende/contracts";
import type { TFunction } from "i18next";
import { parseContactCard, parseLocation } from "./conversation";

const ICONS: Partial<Record<MediaType, string>> = {
  image: "📷",
  sticker: "🖼️",
  audio: "🎤",
  video: "🎥",
  application: "📄",
  locationMessage: "📍",
  vcard: "👤",
  contactMessage: "👤",
  call_log: "📞",
  unreadable: "📵",
};

/** One line that stands for a message: in quotes, the reply preview and the forward list. */
export function messagePreview(
  t: TFunction,
  message: { body: string; mediaType: MediaType; isDeleted: boolean; fromMe: boolean },
): string {
  if (message.isDeleted) return t(message.fromMe ? "chat.deleted.own" : "chat.deleted.byContact");
  const icon = ICONS[message.mediaType];
  const body = message.body.trim();
  switch (message.mediaType) {
    case "locationMessage":
      return `${icon} ${parseLocation(body)?.name || t("chat.media.location")}`;
    case "vcard":
    case "contactMessage":
      return `${icon} ${parseContactCard(body).name || t("chat.media.contact")}`;
    case "call_log":
      return `${icon} ${body}`;
    case "unreadable":
      return `${icon} ${t("chat.media.unreadable")}`;
    case "image":
    case "sticker":
    case "audio":
    case "video":
    case "application":
      return `${icon} ${body || t(`chat.media.${mediaLabel(message.mediaType)}`)}`;
    default:
      return body;
  }
}

function mediaLabel(type: "image" | "sticker" | "audio" | "video" | "application"): string {
  return type === "application" ? "document" : type;
}

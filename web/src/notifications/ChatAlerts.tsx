import { notificationPreviewOn } from "@atende/contracts";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router-dom";
import { useChatsLive } from "../api/chatsLive";
import { useSessionUser } from "../auth/AuthContext";
import { showDesktopNotification } from "./desktop";
import { idInAddress } from "./idInAddress";
import { playMessageSound } from "./sound";
import { readVolume } from "./volume";

/**
 * Keeps the internal chat live on every page (lists, unread counts, the open chat) and tells of a
 * colleague's new message: the notification sound at the chosen volume, and a browser notification
 * while the tab is hidden. Nothing for one's own messages, nor for the chat open on a focused page.
 */
export function ChatAlerts() {
  const { t } = useTranslation();
  const user = useSessionUser();
  const preview = notificationPreviewOn(user.company.settings);
  const navigate = useNavigate();

  useChatsLive((event) => {
    if (event.action !== "new-message" || event.newMessage.senderId === user.id) return;
    const onScreen =
      event.chat.uuid === idInAddress("/chats/:id") &&
      document.visibilityState === "visible" &&
      document.hasFocus();
    if (onScreen) return;
    void playMessageSound(readVolume());
    if (document.visibilityState !== "hidden") return;
    const { newMessage, chat } = event;
    showDesktopNotification({
      title: t("internalChat.notificationTitle", { sender: newMessage.sender?.name ?? "", chat: chat.title }),
      body: (preview && (newMessage.message || newMessage.mediaName)) || t("internalChat.newMessage"),
      tag: `chat-${chat.uuid}`,
      url: `/chats/${chat.uuid}`,
      onClick: () => void navigate(`/chats/${chat.uuid}`),
    });
  });
  return null;
}

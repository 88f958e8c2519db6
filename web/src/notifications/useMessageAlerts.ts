import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { useMatch, useNavigate } from "react-router-dom";
import { useCompanyEvent } from "../api/SocketProvider";
import type { Viewer } from "../api/ticketLists";
import { closeDesktopNotification, showDesktopNotification } from "./desktop";
import { shouldAlert } from "./shouldAlert";
import { playMessageSound, unlockSoundOnFirstGesture } from "./sound";
import { readVolume } from "./volume";

function tagOf(uuid: string): string {
  return `ticket-${uuid}`;
}

function pageFocused(): boolean {
  return document.visibilityState === "visible" && document.hasFocus();
}

/**
 * Rings and shows a browser notification for each new customer message the viewer should hear
 * about (see shouldAlert); clicking the notification brings the window forward on that ticket.
 * Works on any page under the router: the open ticket is read from the address.
 */
export function useMessageAlerts(viewer: Viewer): void {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const openUuid = useMatch("/tickets/:ticketId")?.params.ticketId;

  useEffect(() => unlockSoundOnFirstGesture(), []);

  // Once a ticket is on screen, its notification has nothing more to say.
  useEffect(() => {
    if (openUuid) closeDesktopNotification(tagOf(openUuid));
  }, [openUuid]);

  useCompanyEvent("appMessage", (event) => {
    if (!shouldAlert(event, viewer, { uuid: openUuid, focused: pageFocused() })) return;
    void playMessageSound(readVolume());
    const { contact, ticket, message } = event;
    showDesktopNotification({
      title: contact.name || contact.number,
      body: message.body || ticket.lastMessage || t("tickets.notifications.newMessage"),
      icon: contact.profilePicUrl || undefined,
      tag: tagOf(ticket.uuid),
      url: `/tickets/${ticket.uuid}`,
      onClick: () => void navigate(`/tickets/${ticket.uuid}`),
    });
  });
}

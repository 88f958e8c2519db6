import { hearsTicketArrival, notificationPreviewOn } from "@atende/contracts";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { useMatch, useNavigate } from "react-router-dom";
import { useCompanyEvent } from "../api/SocketProvider";
import { type Viewer, ticketViewerOf } from "../api/ticketLists";
import { useSessionUser } from "../auth/AuthContext";
import { closeDesktopNotification, showDesktopNotification } from "./desktop";
import { idInAddress } from "./idInAddress";
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
 * about (see shouldAlert), and for a waiting ticket that came into their queues without a message
 * of its own (the bot's menu put it there, a colleague transferred it): the rules the server's Web
 * Push follows too. Clicking the notification brings the window forward on that ticket. With the
 * company's previews off, a notification says who wrote, never what. Works on any page under the
 * router: the open ticket is read from the address.
 */
export function useMessageAlerts(viewer: Viewer): void {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const preview = notificationPreviewOn(useSessionUser().company.settings);
  const openUuid = useMatch("/tickets/:ticketId")?.params.ticketId;

  useEffect(() => unlockSoundOnFirstGesture(), []);

  // Once a ticket is on screen, its notification has nothing more to say.
  useEffect(() => {
    if (openUuid) closeDesktopNotification(tagOf(openUuid));
  }, [openUuid]);

  useCompanyEvent("appMessage", (event) => {
    if (!shouldAlert(event, viewer, { uuid: idInAddress("/tickets/:id"), focused: pageFocused() })) return;
    void playMessageSound(readVolume());
    const { contact, ticket, message } = event;
    const text = message.body || ticket.lastMessage;
    showDesktopNotification({
      title: contact.name || contact.number,
      body: preview && text ? text : t("tickets.notifications.newMessage"),
      icon: contact.profilePicUrl || undefined,
      tag: tagOf(ticket.uuid),
      url: `/tickets/${ticket.uuid}`,
      onClick: () => void navigate(`/tickets/${ticket.uuid}`),
    });
  });

  useCompanyEvent("ticket", (event) => {
    if (
      event.action !== "update" ||
      !hearsTicketArrival(ticketViewerOf(viewer), event.ticket, event.previous)
    )
      return;
    const { ticket } = event;
    void playMessageSound(readVolume());
    const who = ticket.contact.name || ticket.contact.number;
    showDesktopNotification({
      title: ticket.queue
        ? t("tickets.notifications.waiting", { queue: ticket.queue.name })
        : t("tickets.notifications.waitingNoQueue"),
      body: preview && ticket.lastMessage ? `${who}: ${ticket.lastMessage}` : who,
      icon: ticket.contact.profilePicUrl || undefined,
      tag: tagOf(ticket.uuid),
      url: `/tickets/${ticket.uuid}`,
      onClick: () => void navigate(`/tickets/${ticket.uuid}`),
    });
  });
}

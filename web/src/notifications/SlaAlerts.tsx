import { useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router-dom";
import { useCompanyEvent } from "../api/SocketProvider";
import { findListedTicket } from "../api/ticketLists";
import { fetchTicket } from "../api/tickets";
import { toast } from "../api/toast";
import { showDesktopNotification } from "./desktop";

/** A breach notice stays longer than a save's toast: it asks for something to be done. */
const BREACH_TOAST_MS = 10_000;

/**
 * Tells, on any page, that a ticket missed a service-level target (`company-{id}-ticketSla`, which
 * the server sends once per ticket and target to the queue's agents and the admins): a toast naming
 * the contact and the target, whose "Open" button opens the ticket, and the browser notification
 * new messages use (when the user allowed it) while the app is not in front.
 */
export function SlaAlerts() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  async function uuidOf(ticketId: number): Promise<string | null> {
    const listed = findListedTicket(queryClient, ticketId);
    if (listed) return listed.uuid;
    try {
      return (await fetchTicket(ticketId)).uuid;
    } catch {
      return null;
    }
  }

  useCompanyEvent("ticketSla", (event) => {
    if (event.action !== "breach") return;
    void (async () => {
      const uuid = await uuidOf(event.ticketId);
      const text = t("sla.breach.text", {
        target: t(`sla.targets.${event.target}`),
        name: event.contactName,
      });
      const open = uuid ? () => void navigate(`/tickets/${uuid}`) : undefined;
      toast(text, "error", {
        duration: BREACH_TOAST_MS,
        action: open ? { label: t("sla.breach.open"), onClick: open } : undefined,
      });
      const inFront = document.visibilityState === "visible" && document.hasFocus();
      if (!inFront && uuid && open) {
        showDesktopNotification({
          title: t("sla.breach.title"),
          body: text,
          tag: `sla-${event.ticketId}-${event.target}`,
          url: `/tickets/${uuid}`,
          onClick: open,
        });
      }
    })();
  });
  return null;
}

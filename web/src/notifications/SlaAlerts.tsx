import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router-dom";
import { useCompanyEvent } from "../api/SocketProvider";
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

  useCompanyEvent("ticketSla", (event) => {
    if (event.action !== "breach") return;
    const uuid = event.ticketUuid;
    const text = t("sla.breach.text", {
      target: t(`sla.targets.${event.target}`),
      name: event.contactName,
    });
    const open = () => void navigate(`/tickets/${uuid}`);
    toast(text, "error", {
      duration: BREACH_TOAST_MS,
      action: { label: t("sla.breach.open"), onClick: open },
    });
    const inFront = document.visibilityState === "visible" && document.hasFocus();
    if (!inFront) {
      showDesktopNotification({
        title: t("sla.breach.title"),
        body: text,
        tag: `sla-${event.ticketId}-${event.target}`,
        url: `/tickets/${uuid}`,
        onClick: open,
      });
    }
  });
  return null;
}

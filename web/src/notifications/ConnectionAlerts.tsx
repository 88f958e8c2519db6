import type { WhatsappStatus } from "@atende/contracts";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { matchPath, useNavigate } from "react-router-dom";
import { useCompanyEvent } from "../api/SocketProvider";
import { toast } from "../api/toast";
import { useWhatsapps } from "../api/whatsapps";
import { useSessionUser } from "../auth/AuthContext";
import { can } from "../auth/permissions";
import { showDesktopNotification } from "./desktop";

/**
 * Tells an admin, on any page, that a connection went down: WhatsApp unreachable for a while
 * (TIMEOUT: it keeps retrying by itself) or a connected number disconnected (logged out on the phone,
 * replaced, refused). A toast (not on the connections page, whose rows show it), and a browser
 * notification while the tab is hidden; the menu's red badge stays until it is back.
 */
export function ConnectionAlerts() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const user = useSessionUser();
  const enabled = can(user, "connections-page:actionButtons");
  const { data } = useWhatsapps(enabled);
  // Each connection's status as last heard here: an alert is for a change, not for a state on load.
  const known = useRef(new Map<number, WhatsappStatus>());

  useEffect(() => {
    for (const w of data ?? []) if (!known.current.has(w.id)) known.current.set(w.id, w.status);
  }, [data]);

  useCompanyEvent("whatsappSession", (payload) => {
    if (!enabled || payload.action !== "update") return;
    const { id, status } = payload.session;
    const before = known.current.get(id);
    known.current.set(id, status);
    const wentDown =
      (status === "TIMEOUT" && before !== undefined && before !== "TIMEOUT") ||
      (status === "DISCONNECTED" && before === "CONNECTED");
    if (!wentDown) return;
    const name = data?.find((w) => w.id === id)?.name ?? "";
    const text = t(`whatsappSession.alerts.${status}`, { name });
    const hidden = document.visibilityState === "hidden";
    // On the connections page the row itself shows it (and a disconnect there is the admin's own).
    // Read from the address now, not from the last render: a navigation renders in a transition
    // (see idInAddress), so for a moment after a click the render still shows the page before.
    const onConnectionsPage = matchPath("/connections", window.location.pathname) !== null;
    if (!onConnectionsPage || hidden) toast(text, "warning");
    if (hidden) {
      showDesktopNotification({
        title: t("whatsappSession.alerts.title"),
        body: text,
        tag: `connection-${id}`,
        url: "/connections",
        onClick: () => void navigate("/connections"),
      });
    }
  });
  return null;
}

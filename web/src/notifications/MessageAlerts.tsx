import { useMemo } from "react";
import type { Viewer } from "../api/ticketLists";
import { useSessionUser } from "../auth/AuthContext";
import { useMessageAlerts } from "./useMessageAlerts";
import { useBackgroundWorkerNavigation } from "./backgroundWorker";

/** New-message sound and browser notification on every page of the app, not only /tickets. */
export function MessageAlerts() {
  const user = useSessionUser();
  const viewer = useMemo<Viewer>(
    () => ({
      id: user.id,
      profile: user.profile,
      allTicket: user.allTicket,
      queues: user.queues,
      permissions: user.permissions,
    }),
    [user.id, user.profile, user.allTicket, user.queues, user.permissions],
  );
  useMessageAlerts(viewer);
  // A click on a notice the background worker showed: the ticket, in this tab.
  useBackgroundWorkerNavigation();
  return null;
}

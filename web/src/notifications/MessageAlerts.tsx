import { useViewer } from "../auth/useViewer";
import { useMessageAlerts } from "./useMessageAlerts";
import { useBackgroundWorkerNavigation } from "./backgroundWorker";

/** New-message sound and browser notification on every page of the app, not only /tickets. */
export function MessageAlerts() {
  const viewer = useViewer();
  useMessageAlerts(viewer);
  // A click on a notice the background worker showed: the ticket, in this tab.
  useBackgroundWorkerNavigation();
  return null;
}

import { useMemo } from "react";
import type { Viewer } from "../api/ticketLists";
import { useSessionUser } from "./AuthContext";

/**
 * The logged-in user as the ticket lists judge visibility (api/ticketLists.ts), kept the same object
 * while those fields stay, so the live lists and the message alerts do not resubscribe on every change
 * of the session's user.
 */
export function useViewer(): Viewer {
  const user = useSessionUser();
  return useMemo<Viewer>(
    () => ({
      id: user.id,
      profile: user.profile,
      allTicket: user.allTicket,
      queues: user.queues,
      permissions: user.permissions,
    }),
    [user.id, user.profile, user.allTicket, user.queues, user.permissions],
  );
}

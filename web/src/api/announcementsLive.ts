import { useQueryClient } from "@tanstack/react-query";
import { usePlatformEvent } from "./SocketProvider";
import { applyToMyAnnouncements } from "./announcements";

/**
 * Keeps the top-bar popover live: `company-announcement` reaches only the companies an
 * announcement is addressed to; a create or update shows it, a delete (or one made inactive) drops it.
 */
export function useAnnouncementsLive(): void {
  const queryClient = useQueryClient();
  usePlatformEvent("company-announcement", (payload) => applyToMyAnnouncements(queryClient, payload));
}

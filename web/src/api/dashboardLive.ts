import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef } from "react";
import { dashboardKeys } from "./dashboard";
import { useCompanyEvent } from "./SocketProvider";

/** How long changes are gathered before the figures are fetched again. */
export const LIVE_REFRESH_MS = 1500;

/**
 * Keeps the dashboard's figures current: a ticket that changes (and an agent going on or off line,
 * a connection coming up or down) starts a short wait; everything else that happens during it
 * rides along, and then every dashboard query is fetched once. A busy desk with many events a
 * second costs one round of requests per LIVE_REFRESH_MS, never one per event.
 */
export function useDashboardLive(): void {
  const queryClient = useQueryClient();
  const timer = useRef<number | undefined>(undefined);

  const refreshSoon = useCallback(() => {
    if (timer.current !== undefined) return;
    timer.current = window.setTimeout(() => {
      timer.current = undefined;
      void queryClient.invalidateQueries({ queryKey: dashboardKeys.all });
    }, LIVE_REFRESH_MS);
  }, [queryClient]);

  useEffect(
    () => () => {
      window.clearTimeout(timer.current);
      timer.current = undefined;
    },
    [],
  );

  useCompanyEvent("ticket", refreshSoon);
  useCompanyEvent("user", refreshSoon);
  useCompanyEvent("whatsapp", refreshSoon);
}

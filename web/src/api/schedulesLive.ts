import { useQueryClient } from "@tanstack/react-query";
import { removeScheduleFromLists, upsertScheduleInLists } from "./schedules";
import { useCompanyEvent } from "./SocketProvider";

/** Keeps the schedule lists and months current while mounted: schedules added, edited, sent or deleted. */
export function useSchedulesLive(): void {
  const queryClient = useQueryClient();
  useCompanyEvent("schedule", (payload) => {
    if (payload.action === "delete") removeScheduleFromLists(queryClient, payload.scheduleId);
    else upsertScheduleInLists(queryClient, payload.schedule);
  });
}

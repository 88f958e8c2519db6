import { useQueryClient } from "@tanstack/react-query";
import { removeQueue, upsertQueue } from "./queues";
import { useCompanyEvent } from "./SocketProvider";

/** Keeps the company's queues current while mounted: queues other admins add, edit or delete. */
export function useQueuesLive(): void {
  const queryClient = useQueryClient();
  useCompanyEvent("queue", (payload) => {
    if (payload.action === "delete") removeQueue(queryClient, payload.queueId);
    else upsertQueue(queryClient, payload.queue);
  });
}

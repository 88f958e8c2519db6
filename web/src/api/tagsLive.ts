import { useQueryClient } from "@tanstack/react-query";
import { useCompanyEvent } from "./SocketProvider";
import { removeTagFromLists, upsertTagInLists } from "./tags";

/** Keeps the tag lists current while mounted: tags other users add, edit or delete. */
export function useTagsLive(): void {
  const queryClient = useQueryClient();
  useCompanyEvent("tag", (payload) => {
    if (payload.action === "delete") removeTagFromLists(queryClient, payload.tagId);
    else upsertTagInLists(queryClient, payload.tag);
  });
}

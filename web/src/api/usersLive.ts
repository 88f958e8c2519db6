import { useQueryClient } from "@tanstack/react-query";
import { useCompanyEvent } from "./SocketProvider";
import { removeUserFromLists, upsertUserInLists } from "./users";

/** Keeps the user lists current while mounted: users other admins add, edit or delete. */
export function useUsersLive(): void {
  const queryClient = useQueryClient();
  useCompanyEvent("user", (payload) => {
    if (payload.action === "delete") removeUserFromLists(queryClient, payload.userId);
    else upsertUserInLists(queryClient, payload.user);
  });
}

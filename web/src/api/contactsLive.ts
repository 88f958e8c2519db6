import { useQueryClient } from "@tanstack/react-query";
import { removeContactFromLists, upsertContactInLists } from "./contacts";
import { useCompanyEvent } from "./SocketProvider";

/** Keeps the contact lists current while mounted: contacts other users add, edit or delete. */
export function useContactsLive(): void {
  const queryClient = useQueryClient();
  useCompanyEvent("contact", (payload) => {
    if (payload.action === "delete") removeContactFromLists(queryClient, payload.contactId);
    else upsertContactInLists(queryClient, payload.contact);
  });
}

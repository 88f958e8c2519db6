import { useQueryClient } from "@tanstack/react-query";
import { useCompanyEvent } from "./SocketProvider";
import { removeTagFromLists, upsertTagInLists } from "./tags";
import { ticketKeys, type TagOption } from "./tickets";

/** Keeps the tag lists current while mounted: tags other users add, edit or delete. */
export function useTagsLive(): void {
  const queryClient = useQueryClient();
  useCompanyEvent("tag", (payload) => {
    if (payload.action === "delete") removeTagFromLists(queryClient, payload.tagId);
    else upsertTagInLists(queryClient, payload.tag);
  });
}

const byName = (a: TagOption, b: TagOption) => a.name.localeCompare(b.name) || a.id - b.id;

/**
 * Keeps the company's tags to choose from (GET /tags/list, the chat's tag editor) current while
 * mounted: tags created, renamed, recoloured or deleted.
 */
export function useTagOptionsLive(): void {
  const queryClient = useQueryClient();
  useCompanyEvent("tag", (event) => {
    queryClient.setQueryData<TagOption[] | null>(ticketKeys.tagOptions(), (options) => {
      if (!options) return options;
      const id = event.action === "delete" ? event.tagId : event.tag.id;
      const others = options.filter((option) => option.id !== id);
      if (event.action === "delete") return others;
      const { name, color } = event.tag;
      return [...others, { id, name, color }].sort(byName);
    });
  });
}

import { LIMITS, type TagDTO } from "@atende/contracts";
import { useInfiniteQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useState } from "react";
import { useTranslation } from "react-i18next";
import { useCompanyEvent } from "../../api/SocketProvider";
import { deleteTag, fetchTagsPage, removeTagFromLists, tagsListKey, upsertTagInLists } from "../../api/tags";
import { ConfirmationDialog } from "../../components/ConfirmationDialog";
import { ListPage } from "../../components/ListPage";
import { useDebouncedValue } from "../../hooks/useDebouncedValue";
import { useConfirmDelete } from "../../hooks/useConfirmDelete";
import { TagDialog } from "./TagDialog";
import { TagsTable } from "./TagsTable";

/** Which tag the dialog edits: null creates a new one; undefined means the dialog is closed. */
type Editing = TagDTO | null | undefined;

/** /tags: search, infinite scroll, add, edit and delete; other people's changes arrive live. */
export function TagsPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [searchText, setSearchText] = useState("");
  const search = useDebouncedValue(searchText.trim(), LIMITS.searchDebounceMs);
  const [editing, setEditing] = useState<Editing>(undefined);

  const list = useInfiniteQuery({
    queryKey: tagsListKey(search),
    queryFn: ({ pageParam, signal }) => fetchTagsPage(search, pageParam, signal),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
  const tags = list.data?.pages.flatMap((page) => page.tags) ?? [];
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = list;

  const loadMore = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  useCompanyEvent("tag", (payload) => {
    if (payload.action === "delete") removeTagFromLists(queryClient, payload.tagId);
    else upsertTagInLists(queryClient, payload.tag);
  });

  const removal = useConfirmDelete<TagDTO>(async (item) => {
    await deleteTag(item.id);
    removeTagFromLists(queryClient, item.id);
  }, t("tags.deleted"));

  return (
    <ListPage
      title={t("tags.title")}
      count={list.data?.pages[0]?.count}
      searchLabel={t("tags.search")}
      searchText={searchText}
      onSearchChange={setSearchText}
      addLabel={t("tags.add")}
      onAdd={() => setEditing(null)}
      dialogs={
        <>
          {editing !== undefined && <TagDialog tag={editing} onClose={() => setEditing(undefined)} />}
          <ConfirmationDialog
            {...removal.dialog}
            title={t("tags.deleteTitle", { name: removal.deleting?.name ?? "" })}
            message={t("tags.deleteConfirm")}
          />
        </>
      }
    >
      <TagsTable
        tags={tags}
        loading={list.isPending || isFetchingNextPage}
        hasMore={Boolean(hasNextPage)}
        searching={search !== ""}
        onLoadMore={loadMore}
        onEdit={setEditing}
        onDelete={removal.ask}
      />
    </ListPage>
  );
}

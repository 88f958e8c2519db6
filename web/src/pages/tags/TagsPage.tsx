import { LIMITS, type TagDTO } from "@atende/contracts";
import { useInfiniteQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useState } from "react";
import { useTranslation } from "react-i18next";
import { useCompanyEvent } from "../../api/SocketProvider";
import { deleteTag, fetchTagsPage, removeTagFromLists, tagsListKey, upsertTagInLists } from "../../api/tags";
import { toast, toastError } from "../../api/toast";
import { ConfirmationDialog } from "../../components/ConfirmationDialog";
import { ListPage } from "../../components/ListPage";
import { useDebouncedValue } from "../../components/useDebouncedValue";
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
  const [deleting, setDeleting] = useState<TagDTO | null>(null);
  const [deleteBusy, setDeleteBusy] = useState(false);

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

  async function confirmDelete() {
    if (!deleting) return;
    setDeleteBusy(true);
    try {
      await deleteTag(deleting.id);
      removeTagFromLists(queryClient, deleting.id);
      toast(t("tags.deleted"), "success");
      setDeleting(null);
    } catch (error) {
      toastError(error);
    } finally {
      setDeleteBusy(false);
    }
  }

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
            open={deleting !== null}
            title={t("tags.deleteTitle", { name: deleting?.name ?? "" })}
            message={t("tags.deleteConfirm")}
            busy={deleteBusy}
            onConfirm={() => void confirmDelete()}
            onClose={() => setDeleting(null)}
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
        onDelete={setDeleting}
      />
    </ListPage>
  );
}

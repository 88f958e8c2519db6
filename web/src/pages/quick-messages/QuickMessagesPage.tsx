import { LIMITS, type QuickMessageDTO } from "@atende/contracts";
import { useInfiniteQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useState } from "react";
import { useTranslation } from "react-i18next";
import {
  deleteQuickMessage,
  fetchQuickMessagesPage,
  quickMessagesListKey,
  removeQuickMessageFromLists,
  upsertQuickMessageInLists,
} from "../../api/quickMessages";
import { useCompanyEvent } from "../../api/SocketProvider";
import { ConfirmationDialog } from "../../components/ConfirmationDialog";
import { ListPage } from "../../components/ListPage";
import { useDebouncedValue } from "../../hooks/useDebouncedValue";
import { useConfirmDelete } from "../../hooks/useConfirmDelete";
import { QuickMessageDialog } from "./QuickMessageDialog";
import { QuickMessagesTable } from "./QuickMessagesTable";

/** Which quick message the dialog edits: null creates a new one; undefined means the dialog is closed. */
type Editing = QuickMessageDTO | null | undefined;

/** /quick-messages: search, infinite scroll, add, edit and delete; other people's changes arrive live. */
export function QuickMessagesPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [searchText, setSearchText] = useState("");
  const search = useDebouncedValue(searchText.trim(), LIMITS.searchDebounceMs);
  const [editing, setEditing] = useState<Editing>(undefined);

  const list = useInfiniteQuery({
    queryKey: quickMessagesListKey(search),
    queryFn: ({ pageParam, signal }) => fetchQuickMessagesPage(search, pageParam, signal),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
  const records = list.data?.pages.flatMap((page) => page.records) ?? [];
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = list;

  const loadMore = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  useCompanyEvent("quickmessage", (payload) => {
    if (payload.action === "delete") removeQuickMessageFromLists(queryClient, payload.id);
    else upsertQuickMessageInLists(queryClient, payload.record);
  });

  const removal = useConfirmDelete<QuickMessageDTO>(async (item) => {
    await deleteQuickMessage(item.id);
    removeQuickMessageFromLists(queryClient, item.id);
  }, t("quickMessages.deleted"));

  return (
    <ListPage
      title={t("quickMessages.title")}
      count={list.data?.pages[0]?.count}
      searchLabel={t("quickMessages.search")}
      searchText={searchText}
      onSearchChange={setSearchText}
      addLabel={t("quickMessages.add")}
      onAdd={() => setEditing(null)}
      dialogs={
        <>
          {editing !== undefined && (
            <QuickMessageDialog quickMessage={editing} onClose={() => setEditing(undefined)} />
          )}
          <ConfirmationDialog
            {...removal.dialog}
            title={t("quickMessages.deleteTitle", { shortcode: removal.deleting?.shortcode ?? "" })}
            message={t("quickMessages.deleteConfirm")}
          />
        </>
      }
    >
      <QuickMessagesTable
        records={records}
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

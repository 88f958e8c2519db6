import { LIMITS, type UserDTO } from "@atende/contracts";
import PersonAddIcon from "@mui/icons-material/PersonAddOutlined";
import { useInfiniteQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useState } from "react";
import { useTranslation } from "react-i18next";
import { useCompanyEvent } from "../../api/SocketProvider";
import {
  deleteUser,
  fetchUsersPage,
  removeUserFromLists,
  upsertUserInLists,
  usersListKey,
} from "../../api/users";
import { ConfirmationDialog } from "../../components/ConfirmationDialog";
import { ListPage } from "../../components/ListPage";
import { useDebouncedValue } from "../../hooks/useDebouncedValue";
import { UserModal } from "../../components/UserModal/UserModal";
import { useConfirmDelete } from "../../hooks/useConfirmDelete";
import { UsersTable } from "./UsersTable";

/** Which user the dialog edits: null creates a new one; undefined means the dialog is closed. */
type Editing = UserDTO | null | undefined;

export function UsersPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [searchText, setSearchText] = useState("");
  const search = useDebouncedValue(searchText.trim(), LIMITS.searchDebounceMs);
  const [editing, setEditing] = useState<Editing>(undefined);

  const list = useInfiniteQuery({
    queryKey: usersListKey(search),
    queryFn: ({ pageParam, signal }) => fetchUsersPage(search, pageParam, signal),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
  const users = list.data?.pages.flatMap((page) => page.users) ?? [];
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = list;

  const loadMore = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  useCompanyEvent("user", (payload) => {
    if (payload.action === "delete") removeUserFromLists(queryClient, payload.userId);
    else upsertUserInLists(queryClient, payload.user);
  });

  const removal = useConfirmDelete<UserDTO>(async (item) => {
    await deleteUser(item.id);
    removeUserFromLists(queryClient, item.id);
  }, t("users.deleted"));

  return (
    <ListPage
      title={t("users.title")}
      searchLabel={t("users.search")}
      searchText={searchText}
      onSearchChange={setSearchText}
      addLabel={t("users.add")}
      addIcon={<PersonAddIcon />}
      onAdd={() => setEditing(null)}
      dialogs={
        <>
          {editing !== undefined && <UserModal user={editing} onClose={() => setEditing(undefined)} />}
          <ConfirmationDialog
            {...removal.dialog}
            title={t("users.deleteTitle", { name: removal.deleting?.name ?? "" })}
            message={t("users.deleteConfirm")}
          />
        </>
      }
    >
      <UsersTable
        users={users}
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

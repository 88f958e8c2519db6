import { LIMITS, type UserDTO } from "@atende/contracts";
import PersonAddIcon from "@mui/icons-material/PersonAddOutlined";
import { useInfiniteQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useState } from "react";
import { useTranslation } from "react-i18next";
import { useCompanyEvent } from "../../api/SocketProvider";
import { toast, toastError } from "../../api/toast";
import {
  deleteUser,
  fetchUsersPage,
  removeUserFromLists,
  upsertUserInLists,
  usersListKey,
} from "../../api/users";
import { ConfirmationDialog } from "../../components/ConfirmationDialog";
import { ListPage } from "../../components/ListPage";
import { useDebouncedValue } from "../../components/useDebouncedValue";
import { UserModal } from "../../components/UserModal/UserModal";
import { UsersTable } from "./UsersTable";

/** Which user the dialog edits: null creates a new one; undefined means the dialog is closed. */
type Editing = UserDTO | null | undefined;

export function UsersPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [searchText, setSearchText] = useState("");
  const search = useDebouncedValue(searchText.trim(), LIMITS.searchDebounceMs);
  const [editing, setEditing] = useState<Editing>(undefined);
  const [deleting, setDeleting] = useState<UserDTO | null>(null);
  const [deleteBusy, setDeleteBusy] = useState(false);

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

  async function confirmDelete() {
    if (!deleting) return;
    setDeleteBusy(true);
    try {
      await deleteUser(deleting.id);
      removeUserFromLists(queryClient, deleting.id);
      toast(t("users.deleted"), "success");
      setDeleting(null);
    } catch (error) {
      toastError(error);
    } finally {
      setDeleteBusy(false);
    }
  }

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
            open={deleting !== null}
            title={t("users.deleteTitle", { name: deleting?.name ?? "" })}
            message={t("users.deleteConfirm")}
            busy={deleteBusy}
            onConfirm={() => void confirmDelete()}
            onClose={() => setDeleting(null)}
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
        onDelete={setDeleting}
      />
    </ListPage>
  );
}

import type { UserDTO } from "@atende/contracts";
import PersonAddIcon from "@mui/icons-material/PersonAddOutlined";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { deleteUser, fetchUsersPage, removeUserFromLists, userKeys } from "../../api/users";
import { useUsersLive } from "../../api/usersLive";
import { ConfirmationDialog } from "../../components/ConfirmationDialog";
import { ListPage } from "../../components/ListPage";
import { UserModal } from "../../components/UserModal/UserModal";
import { useConfirmDelete } from "../../hooks/useConfirmDelete";
import { useSearchableList } from "../../hooks/useSearchableList";
import { UsersTable } from "./UsersTable";

/** Which user the dialog edits: null creates a new one; undefined means the dialog is closed. */
type Editing = UserDTO | null | undefined;

export function UsersPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<Editing>(undefined);
  const list = useSearchableList({
    queryKey: userKeys.list,
    fetchPage: fetchUsersPage,
    itemsOf: (page) => page.users,
  });

  useUsersLive();

  const removal = useConfirmDelete<UserDTO>(async (item) => {
    await deleteUser(item.id);
    removeUserFromLists(queryClient, item.id);
  }, t("users.deleted"));

  return (
    <ListPage
      title={t("users.title")}
      searchLabel={t("users.search")}
      searchText={list.searchText}
      onSearchChange={list.setSearchText}
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
      <UsersTable list={list} onEdit={setEditing} onDelete={removal.ask} />
    </ListPage>
  );
}

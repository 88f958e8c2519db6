import type { QuickMessageDTO } from "@atende/contracts";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import {
  deleteQuickMessage,
  fetchQuickMessagesPage,
  quickMessageKeys,
  removeQuickMessageFromLists,
} from "../../api/quickMessages";
import { useQuickMessagesLive } from "../../api/quickMessagesLive";
import { ConfirmationDialog } from "../../components/ConfirmationDialog";
import { ListPage } from "../../components/ListPage";
import { useConfirmDelete } from "../../hooks/useConfirmDelete";
import { useSearchableList } from "../../hooks/useSearchableList";
import { QuickMessageDialog } from "./QuickMessageDialog";
import { QuickMessagesTable } from "./QuickMessagesTable";

/** Which quick message the dialog edits: null creates a new one; undefined means the dialog is closed. */
type Editing = QuickMessageDTO | null | undefined;

/** /quick-messages: search, infinite scroll, add, edit and delete; other people's changes arrive live. */
export function QuickMessagesPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<Editing>(undefined);
  const list = useSearchableList({
    queryKey: quickMessageKeys.list,
    fetchPage: fetchQuickMessagesPage,
    itemsOf: (page) => page.records,
  });

  useQuickMessagesLive();

  const removal = useConfirmDelete<QuickMessageDTO>(async (item) => {
    await deleteQuickMessage(item.id);
    removeQuickMessageFromLists(queryClient, item.id);
  }, t("quickMessages.deleted"));

  return (
    <ListPage
      title={t("quickMessages.title")}
      count={list.count}
      searchLabel={t("quickMessages.search")}
      searchText={list.searchText}
      onSearchChange={list.setSearchText}
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
      <QuickMessagesTable list={list} onEdit={setEditing} onDelete={removal.ask} />
    </ListPage>
  );
}

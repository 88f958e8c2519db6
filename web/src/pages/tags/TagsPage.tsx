import type { TagDTO } from "@atende/contracts";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { deleteTag, fetchTagsPage, removeTagFromLists, tagKeys } from "../../api/tags";
import { useTagsLive } from "../../api/tagsLive";
import { ConfirmationDialog } from "../../components/ConfirmationDialog";
import { ListPage } from "../../components/ListPage";
import { useConfirmDelete } from "../../hooks/useConfirmDelete";
import { useSearchableList } from "../../hooks/useSearchableList";
import { TagDialog } from "./TagDialog";
import { TagsTable } from "./TagsTable";

/** Which tag the dialog edits: null creates a new one; undefined means the dialog is closed. */
type Editing = TagDTO | null | undefined;

/** /tags: search, infinite scroll, add, edit and delete; other people's changes arrive live. */
export function TagsPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<Editing>(undefined);
  const list = useSearchableList({
    queryKey: tagKeys.list,
    fetchPage: fetchTagsPage,
    itemsOf: (page) => page.tags,
  });

  useTagsLive();

  const removal = useConfirmDelete<TagDTO>(async (item) => {
    await deleteTag(item.id);
    removeTagFromLists(queryClient, item.id);
  }, t("tags.deleted"));

  return (
    <ListPage
      title={t("tags.title")}
      count={list.count}
      searchLabel={t("tags.search")}
      searchText={list.searchText}
      onSearchChange={list.setSearchText}
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
      <TagsTable list={list} onEdit={setEditing} onDelete={removal.ask} />
    </ListPage>
  );
}

import type { FileListDTO } from "@atende/contracts";
import DeleteIcon from "@mui/icons-material/DeleteOutlineOutlined";
import EditIcon from "@mui/icons-material/EditOutlined";
import { IconButton, TableCell, TableRow } from "@mui/material";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { deleteFileList, fetchFileListsPage, fileListKeys, useFileListsLive } from "../../api/fileLists";
import { ConfirmationDialog } from "../../components/ConfirmationDialog";
import { InfiniteTable } from "../../components/InfiniteTable";
import { ListPage } from "../../components/ListPage";
import { useConfirmDelete } from "../../hooks/useConfirmDelete";
import { useSearchableList } from "../../hooks/useSearchableList";
import { FileListDialog } from "./FileListDialog";

type Editing = FileListDTO | null | undefined;

/** /files: search, count, a table of names; add, edit (message and files) and delete. */
export function FileListsPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<Editing>(undefined);
  const list = useSearchableList({
    queryKey: fileListKeys.list,
    fetchPage: fetchFileListsPage,
    itemsOf: (page) => page.files,
  });
  useFileListsLive();
  const removal = useConfirmDelete<FileListDTO>(async (item) => {
    await deleteFileList(item.id);
    await queryClient.invalidateQueries({ queryKey: fileListKeys.lists() });
  }, t("contactLists.files.deleted"));

  return (
    <ListPage
      title={t("contactLists.files.title")}
      count={list.count}
      searchLabel={t("contactLists.files.search")}
      searchText={list.searchText}
      onSearchChange={list.setSearchText}
      addLabel={t("contactLists.files.add")}
      onAdd={() => setEditing(null)}
      dialogs={
        <>
          {editing !== undefined && (
            <FileListDialog fileList={editing} onClose={() => setEditing(undefined)} />
          )}
          <ConfirmationDialog
            {...removal.dialog}
            title={t("contactLists.files.deleteTitle", { name: removal.deleting?.name ?? "" })}
            message={t("contactLists.files.deleteConfirm")}
          />
        </>
      }
    >
      <InfiniteTable
        list={list}
        columns={[
          { label: t("contactLists.files.columns.name") },
          { label: t("contactLists.files.columns.files"), align: "center" },
          { label: t("contactLists.files.columns.actions"), align: "center" },
        ]}
        empty={t(list.search !== "" ? "contactLists.files.emptySearch" : "contactLists.files.empty")}
        renderRow={(row) => (
          <TableRow key={row.id} hover data-testid={`file-list-row-${row.id}`}>
            <TableCell>{row.name}</TableCell>
            <TableCell align="center">
              {t("contactLists.files.filesCount", { count: row.options.length })}
            </TableCell>
            <TableCell align="center" sx={{ whiteSpace: "nowrap" }}>
              <IconButton
                size="small"
                aria-label={`${t("contactLists.files.edit")} ${row.name}`}
                onClick={() => setEditing(row)}
              >
                <EditIcon fontSize="small" />
              </IconButton>
              <IconButton
                size="small"
                aria-label={`${t("contactLists.files.delete")} ${row.name}`}
                onClick={() => removal.ask(row)}
              >
                <DeleteIcon fontSize="small" />
              </IconButton>
            </TableCell>
          </TableRow>
        )}
      />
    </ListPage>
  );
}

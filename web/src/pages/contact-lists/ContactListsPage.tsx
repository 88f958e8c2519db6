import type { ContactListDTO } from "@atende/contracts";
import DeleteIcon from "@mui/icons-material/DeleteOutlineOutlined";
import DownloadIcon from "@mui/icons-material/DownloadOutlined";
import EditIcon from "@mui/icons-material/EditOutlined";
import PeopleIcon from "@mui/icons-material/PeopleOutlined";
import { Button, IconButton, MenuItem, TableCell, TableRow, TextField, Tooltip } from "@mui/material";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Controller, useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router-dom";
import { zodResolver } from "@hookform/resolvers/zod";
import { z } from "zod";
import { contactListNameField } from "@atende/contracts";
import {
  contactListKeys,
  deleteContactList,
  downloadExampleSpreadsheet,
  fetchContactListsPage,
  saveContactList,
  useContactListsLive,
} from "../../api/contactLists";
import { toast, toastError } from "../../api/toast";
import { useWhatsapps } from "../../api/whatsapps";
import { ConfirmationDialog } from "../../components/ConfirmationDialog";
import { FormDialog } from "../../components/FormDialog";
import { InfiniteTable } from "../../components/InfiniteTable";
import { ListPage } from "../../components/ListPage";
import { applyServerErrors, fieldErrorText, textFieldRegister } from "../../components/formFields";
import { useConfirmDelete } from "../../hooks/useConfirmDelete";
import { useSearchableList } from "../../hooks/useSearchableList";

type Editing = ContactListDTO | null | undefined;

/** /contact-lists: search, infinite scroll, counts; example spreadsheet, open items, add, edit, delete. */
export function ContactListsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<Editing>(undefined);
  const list = useSearchableList({
    queryKey: contactListKeys.list,
    fetchPage: fetchContactListsPage,
    itemsOf: (page) => page.records,
  });
  useContactListsLive();

  const removal = useConfirmDelete<ContactListDTO>(async (item) => {
    await deleteContactList(item.id);
    await queryClient.invalidateQueries({ queryKey: contactListKeys.lists() });
  }, t("contactLists.lists.deleted"));

  const example = () => downloadExampleSpreadsheet().catch(toastError);

  return (
    <ListPage
      title={t("contactLists.lists.title")}
      count={list.count}
      searchLabel={t("contactLists.lists.search")}
      searchText={list.searchText}
      onSearchChange={list.setSearchText}
      addLabel={t("contactLists.lists.add")}
      onAdd={() => setEditing(null)}
      dialogs={
        <>
          {editing !== undefined && (
            <ContactListDialog list={editing} onClose={() => setEditing(undefined)} />
          )}
          <ConfirmationDialog
            {...removal.dialog}
            title={t("contactLists.lists.deleteTitle", { name: removal.deleting?.name ?? "" })}
            message={t("contactLists.lists.deleteConfirm")}
          />
        </>
      }
    >
      <InfiniteTable
        list={list}
        columns={[
          { label: t("contactLists.lists.columns.name") },
          { label: t("contactLists.lists.columns.contacts"), align: "center" },
          { label: t("contactLists.lists.columns.actions"), align: "center" },
        ]}
        empty={t(list.search !== "" ? "contactLists.lists.emptySearch" : "contactLists.lists.empty")}
        emptyActions={
          <Button startIcon={<DownloadIcon />} onClick={() => void example()}>
            {t("contactLists.lists.example")}
          </Button>
        }
        renderRow={(row) => (
          <TableRow key={row.id} hover data-testid={`contact-list-row-${row.id}`}>
            <TableCell>{row.name}</TableCell>
            <TableCell align="center" data-testid="contacts-count">
              {row.contactsCount}
            </TableCell>
            <TableCell align="center" sx={{ whiteSpace: "nowrap" }}>
              <Tooltip title={t("contactLists.lists.example")}>
                <IconButton
                  size="small"
                  aria-label={t("contactLists.lists.example")}
                  onClick={() => void example()}
                >
                  <DownloadIcon fontSize="small" />
                </IconButton>
              </Tooltip>
              <Tooltip title={t("contactLists.lists.open")}>
                <IconButton
                  size="small"
                  aria-label={`${t("contactLists.lists.open")} ${row.name}`}
                  onClick={() => navigate(`/contact-lists/${row.id}/contacts`)}
                >
                  <PeopleIcon fontSize="small" />
                </IconButton>
              </Tooltip>
              <IconButton
                size="small"
                aria-label={`${t("contactLists.lists.edit")} ${row.name}`}
                onClick={() => setEditing(row)}
              >
                <EditIcon fontSize="small" />
              </IconButton>
              <IconButton
                size="small"
                aria-label={`${t("contactLists.lists.delete")} ${row.name}`}
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

const listFormSchema = z.object({ name: contactListNameField, whatsappId: z.string() });
type ListFormValues = z.input<typeof listFormSchema>;
type ListFormOutput = z.output<typeof listFormSchema>;

/** Creates or renames a list: name 2 to 50 ('Too Short!' / 'Too Long!'). */
function ContactListDialog({ list, onClose }: { list: ContactListDTO | null; onClose(): void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const connections = useWhatsapps();
  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<ListFormValues, unknown, ListFormOutput>({
    defaultValues: { name: list?.name ?? "", whatsappId: list?.whatsappId ? String(list.whatsappId) : "" },
    resolver: zodResolver(listFormSchema),
  });

  async function submit(values: ListFormOutput) {
    try {
      await saveContactList(list?.id ?? null, {
        name: values.name,
        whatsappId: values.whatsappId ? Number(values.whatsappId) : null,
      });
      await queryClient.invalidateQueries({ queryKey: contactListKeys.lists() });
      toast(t("contactLists.lists.saved"), "success");
      onClose();
    } catch (error) {
      applyServerErrors(error, setError, {
        codes: { ERR_NO_WAPP_FOUND: "whatsappId" },
        fieldOf: (path) => (path === "name" || path === "whatsappId" ? path : undefined),
      });
    }
  }

  return (
    <FormDialog
      title={t(list ? "contactLists.lists.dialog.editTitle" : "contactLists.lists.dialog.addTitle")}
      maxWidth="xs"
      onClose={onClose}
      onSubmit={handleSubmit(submit)}
      submitting={isSubmitting}
    >
      <TextField
        {...textFieldRegister(register("name"))}
        id="contact-list-name"
        label={t("contactLists.lists.dialog.name")}
        autoFocus
        required
        fullWidth
        autoComplete="off"
        error={Boolean(errors.name)}
        helperText={fieldErrorText(errors.name)}
      />
      <Controller
        control={control}
        name="whatsappId"
        render={({ field }) => (
          <TextField
            select
            id="contact-list-whatsapp"
            label={t("contactLists.lists.dialog.connection")}
            value={field.value}
            onChange={field.onChange}
            onBlur={field.onBlur}
            error={Boolean(errors.whatsappId)}
            helperText={fieldErrorText(errors.whatsappId) ?? t("contactLists.lists.dialog.connectionHelp")}
            fullWidth
            sx={{ mt: 2.5 }}
          >
            <MenuItem value="">{t("contactLists.lists.dialog.defaultConnection")}</MenuItem>
            {(connections.data ?? []).map((w) => (
              <MenuItem key={w.id} value={String(w.id)}>
                {w.name}
              </MenuItem>
            ))}
          </TextField>
        )}
      />
    </FormDialog>
  );
}

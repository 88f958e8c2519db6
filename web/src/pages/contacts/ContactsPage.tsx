import { LIMITS, type ContactDTO, type TicketDTO } from "@atende/contracts";
import DownloadIcon from "@mui/icons-material/FileDownloadOutlined";
import UploadIcon from "@mui/icons-material/FileUploadOutlined";
import PersonAddIcon from "@mui/icons-material/PersonAddOutlined";
import SearchIcon from "@mui/icons-material/Search";
import { Box, Button, InputAdornment, Paper, Stack, TextField, Typography } from "@mui/material";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router-dom";
import {
  contactKeys,
  deleteContact,
  exportContacts,
  fetchContactsPage,
  removeContactFromLists,
} from "../../api/contacts";
import { useContactsLive } from "../../api/contactsLive";
import { toastError } from "../../api/toast";
import { useSessionUser } from "../../auth/AuthContext";
import { can } from "../../auth/permissions";
import { ConfirmationDialog } from "../../components/ConfirmationDialog";
import { ContactDialog } from "../../components/ContactDialog/ContactDialog";
import { TicketStartDialog } from "../../components/TicketStartDialog";
import { useConfirmDelete } from "../../hooks/useConfirmDelete";
import { useSearchableList } from "../../hooks/useSearchableList";
import { ContactsTable } from "./ContactsTable";
import { ImportDialog } from "./ImportDialog";

/** Which contact the dialog edits: null creates a new one; undefined means the dialog is closed. */
type Editing = ContactDTO | null | undefined;

/** /contacts: search, infinite list, create / edit, delete (by permission), start a ticket, CSV in and out. */
export function ContactsPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const user = useSessionUser();
  const canDelete = can(user, "contacts-page:deleteContact");
  const [editing, setEditing] = useState<Editing>(undefined);
  const [starting, setStarting] = useState<ContactDTO | null>(null);
  const [importing, setImporting] = useState(false);
  const [exporting, setExporting] = useState(false);

  const list = useSearchableList({
    queryKey: contactKeys.list,
    fetchPage: fetchContactsPage,
    itemsOf: (page) => page.contacts,
    // The spec's contact search starts at 3 characters; fewer shows the whole list.
    minSearchLength: LIMITS.contactSearchMinChars,
  });
  const { searchText, search } = list;
  const total = list.count;

  useContactsLive();

  const openTicket = (ticket: TicketDTO) => void navigate(`/tickets/${ticket.uuid}`);

  const removal = useConfirmDelete<ContactDTO>(async (item) => {
    await deleteContact(item.id);
    removeContactFromLists(queryClient, item.id);
  }, t("contacts.deleted"));

  async function runExport() {
    setExporting(true);
    try {
      await exportContacts(search);
    } catch (error) {
      toastError(error);
    } finally {
      setExporting(false);
    }
  }

  const typedTooLittle =
    searchText.trim().length > 0 && searchText.trim().length < LIMITS.contactSearchMinChars;

  return (
    <Box
      sx={{ p: { xs: 1.5, sm: 3 }, display: "flex", flexDirection: "column", gap: 2, flex: 1, minHeight: 0 }}
    >
      <Stack direction={{ xs: "column", md: "row" }} spacing={1.5} sx={{ alignItems: { md: "center" } }}>
        <Box sx={{ flex: 1 }}>
          <Typography variant="h5" component="h1" sx={{ fontWeight: 600 }}>
            {t("contacts.title")}
          </Typography>
          {total !== undefined && (
            <Typography variant="body2" color="text.secondary">
              {t("contacts.count", { count: total })}
            </Typography>
          )}
        </Box>
        <TextField
          size="small"
          type="search"
          placeholder={t("contacts.search")}
          value={searchText}
          onChange={(event) => list.setSearchText(event.target.value)}
          helperText={typedTooLittle ? t("contacts.searchHint") : undefined}
          sx={{ minWidth: { md: 280 } }}
          slotProps={{
            htmlInput: { "aria-label": t("contacts.search") },
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <SearchIcon fontSize="small" />
                </InputAdornment>
              ),
            },
          }}
        />
        <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: "wrap" }}>
          <Button variant="outlined" startIcon={<UploadIcon />} onClick={() => setImporting(true)}>
            {t("contacts.import")}
          </Button>
          <Button
            variant="outlined"
            startIcon={<DownloadIcon />}
            loading={exporting}
            onClick={() => void runExport()}
          >
            {t("contacts.export")}
          </Button>
          <Button variant="contained" startIcon={<PersonAddIcon />} onClick={() => setEditing(null)}>
            {t("contacts.add")}
          </Button>
        </Stack>
      </Stack>
      <Paper
        variant="outlined"
        sx={{ flex: 1, minHeight: 0, display: "flex", flexDirection: "column", overflow: "hidden" }}
      >
        <ContactsTable
          list={list}
          canDelete={canDelete}
          onAdd={() => setEditing(null)}
          onImport={() => setImporting(true)}
          onStartTicket={setStarting}
          onEdit={setEditing}
          onDelete={removal.ask}
        />
      </Paper>
      {editing !== undefined && (
        <ContactDialog
          key={editing?.id ?? "new"}
          contact={editing}
          onOpenExisting={setEditing}
          onClose={() => setEditing(undefined)}
        />
      )}
      {starting && (
        <TicketStartDialog
          contact={starting}
          onStarted={openTicket}
          onOpenExisting={openTicket}
          onClose={() => setStarting(null)}
        />
      )}
      {importing && <ImportDialog onClose={() => setImporting(false)} />}
      <ConfirmationDialog
        {...removal.dialog}
        title={t("contacts.deleteTitle", { name: removal.deleting?.name ?? "" })}
        message={t("contacts.deleteConfirm")}
      />
    </Box>
  );
}

import {
  CONTACT_LIST_IMPORT_ACCEPT,
  type ContactListImportDTO,
  type ContactListItemDTO,
} from "@atende/contracts";
import AddIcon from "@mui/icons-material/Add";
import ArrowBackIcon from "@mui/icons-material/ArrowBack";
import BlockIcon from "@mui/icons-material/Block";
import CheckCircleIcon from "@mui/icons-material/CheckCircle";
import DeleteIcon from "@mui/icons-material/DeleteOutlineOutlined";
import EditIcon from "@mui/icons-material/EditOutlined";
import HourglassIcon from "@mui/icons-material/HourglassEmptyOutlined";
import UploadIcon from "@mui/icons-material/UploadFileOutlined";
import SearchIcon from "@mui/icons-material/Search";
import {
  Box,
  Button,
  IconButton,
  InputAdornment,
  Paper,
  Stack,
  TableCell,
  TableRow,
  TextField,
  Tooltip,
  Typography,
} from "@mui/material";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate, useParams } from "react-router-dom";
import {
  contactListKeys,
  deleteItem,
  fetchContactList,
  fetchItemsPage,
  fetchLatestImport,
  uploadSpreadsheet,
  useContactListItemsLive,
} from "../../api/contactLists";
import { toast, toastError } from "../../api/toast";
import { useSessionUser } from "../../auth/AuthContext";
import { can } from "../../auth/permissions";
import { ConfirmationDialog } from "../../components/ConfirmationDialog";
import { InfiniteTable } from "../../components/InfiniteTable";
import { useConfirmDelete } from "../../hooks/useConfirmDelete";
import { useSearchableList } from "../../hooks/useSearchableList";
import { ImportProgress } from "./ImportProgress";
import { ItemDialog } from "./ItemDialog";

type Editing = ContactListItemDTO | null | undefined;

/** The WhatsApp-valid icon: checked and on WhatsApp, checked and not, or not checked yet. */
function ValidIcon({ valid }: { valid: boolean | null }) {
  const { t } = useTranslation();
  const label = t(
    valid === null
      ? "contactLists.items.unchecked"
      : valid
        ? "contactLists.items.valid"
        : "contactLists.items.invalid",
  );
  const Icon = valid === null ? HourglassIcon : valid ? CheckCircleIcon : BlockIcon;
  return (
    <Tooltip title={label}>
      <Icon
        fontSize="small"
        color={valid === null ? "disabled" : valid ? "success" : "error"}
        titleAccess={label}
        data-testid={`whatsapp-${valid === null ? "unchecked" : valid ? "valid" : "invalid"}`}
      />
    </Tooltip>
  );
}

/** /contact-lists/:contactListId/contacts: search, import with live progress, add, edit, delete. */
export function ContactListItemsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const user = useSessionUser();
  const listId = Number(useParams().contactListId);
  const [editing, setEditing] = useState<Editing>(undefined);
  const [uploading, setUploading] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const contactList = useQuery({
    queryKey: contactListKeys.one(listId),
    queryFn: ({ signal }) => fetchContactList(listId, signal),
  });
  const latestImport = useQuery({
    queryKey: contactListKeys.latestImport(listId),
    queryFn: ({ signal }) => fetchLatestImport(listId, signal),
  });
  const list = useSearchableList({
    queryKey: contactListKeys.itemsList(listId),
    fetchPage: fetchItemsPage(listId),
    itemsOf: (page) => page.contacts,
  });
  useContactListItemsLive(listId);
  const mayDelete = can(user, "contacts-page:deleteContact");

  const removal = useConfirmDelete<ContactListItemDTO>(async (item) => {
    await deleteItem(item.id);
    await queryClient.invalidateQueries({ queryKey: contactListKeys.items(listId) });
  }, t("contactLists.items.deleted"));

  async function upload(file: File) {
    setUploading(true);
    try {
      const started = await uploadSpreadsheet(listId, file);
      // The job's live progress may have arrived before this answer: never step back to "queued".
      queryClient.setQueryData<ContactListImportDTO | null>(
        contactListKeys.latestImport(listId),
        (current) => (current?.id === started.id ? current : started),
      );
      toast(t("contactLists.items.importing.sent"), "success");
    } catch (error) {
      toastError(error);
    } finally {
      setUploading(false);
      if (fileInput.current) fileInput.current.value = "";
    }
  }

  return (
    <Stack spacing={2} sx={{ height: "100%", minHeight: 0 }}>
      <Stack direction={{ xs: "column", md: "row" }} spacing={1.5} sx={{ alignItems: { md: "center" } }}>
        <Typography variant="h5" component="h1" sx={{ flexGrow: 1 }}>
          {t("contactLists.items.title", { name: contactList.data?.name ?? "" })}
          {list.count !== undefined && (
            <Box
              component="span"
              sx={{ color: "text.secondary", ml: 1, typography: "body1" }}
              data-testid="items-count"
            >
              ({list.count})
            </Box>
          )}
        </Typography>
        <TextField
          size="small"
          placeholder={t("contactLists.items.search")}
          value={list.searchText}
          onChange={(e) => list.setSearchText(e.target.value)}
          slotProps={{
            htmlInput: { "aria-label": t("contactLists.items.search") },
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <SearchIcon fontSize="small" />
                </InputAdornment>
              ),
            },
          }}
        />
        <Button variant="outlined" startIcon={<ArrowBackIcon />} onClick={() => navigate("/contact-lists")}>
          {t("contactLists.items.lists")}
        </Button>
        <Button
          variant="outlined"
          startIcon={<UploadIcon />}
          disabled={uploading}
          onClick={() => fileInput.current?.click()}
        >
          {t("contactLists.items.import")}
        </Button>
        <input
          ref={fileInput}
          type="file"
          hidden
          accept={CONTACT_LIST_IMPORT_ACCEPT}
          data-testid="import-file"
          onChange={(e) => {
            const file = e.target.files?.[0];
            if (file) void upload(file);
          }}
        />
        <Button variant="contained" startIcon={<AddIcon />} onClick={() => setEditing(null)}>
          {t("contactLists.items.add")}
        </Button>
      </Stack>
      <Paper
        variant="outlined"
        sx={{ flexGrow: 1, minHeight: 0, display: "flex", flexDirection: "column", overflow: "hidden" }}
      >
        {latestImport.data && <ImportProgress record={latestImport.data} />}
        <InfiniteTable
          list={list}
          columns={[
            { label: t("contactLists.items.columns.valid"), align: "center", sx: { width: 80 } },
            { label: t("contactLists.items.columns.name") },
            { label: t("contactLists.items.columns.number") },
            { label: t("contactLists.items.columns.email") },
            { label: t("contactLists.items.columns.actions"), align: "center" },
          ]}
          empty={t(list.search !== "" ? "contactLists.items.emptySearch" : "contactLists.items.empty")}
          renderRow={(item) => (
            <TableRow key={item.id} hover data-testid={`item-row-${item.number}`}>
              <TableCell align="center">
                <ValidIcon valid={item.isWhatsappValid} />
              </TableCell>
              <TableCell>{item.name}</TableCell>
              <TableCell>{item.number}</TableCell>
              <TableCell>{item.email}</TableCell>
              <TableCell align="center" sx={{ whiteSpace: "nowrap" }}>
                <IconButton
                  size="small"
                  aria-label={`${t("contactLists.items.edit")} ${item.name}`}
                  onClick={() => setEditing(item)}
                >
                  <EditIcon fontSize="small" />
                </IconButton>
                {mayDelete && (
                  <IconButton
                    size="small"
                    aria-label={`${t("contactLists.items.delete")} ${item.name}`}
                    onClick={() => removal.ask(item)}
                  >
                    <DeleteIcon fontSize="small" />
                  </IconButton>
                )}
              </TableCell>
            </TableRow>
          )}
        />
      </Paper>
      {editing !== undefined && (
        <ItemDialog listId={listId} item={editing} onClose={() => setEditing(undefined)} />
      )}
      <ConfirmationDialog
        {...removal.dialog}
        title={t("contactLists.items.deleteTitle", { name: removal.deleting?.name ?? "" })}
        message={t("contactLists.items.deleteConfirm")}
      />
    </Stack>
  );
}

import type { ContactDTO } from "@atende/contracts";
import DeleteIcon from "@mui/icons-material/DeleteOutlineOutlined";
import EditIcon from "@mui/icons-material/EditOutlined";
import WhatsAppIcon from "@mui/icons-material/WhatsApp";
import {
  Box,
  Button,
  IconButton,
  Skeleton,
  Stack,
  TableCell,
  TableRow,
  Tooltip,
  Typography,
} from "@mui/material";
import { useTranslation } from "react-i18next";
import { ContactAvatar } from "../../components/ContactAvatar";
import { InfiniteTable } from "../../components/InfiniteTable";
import type { SearchableList } from "../../hooks/useSearchableList";
import { formatNumber } from "./format";

interface ContactsTableProps {
  list: SearchableList<ContactDTO>;
  canDelete: boolean;
  /** The empty list's own actions (DESIGN: a sentence and an action when empty). */
  onAdd(): void;
  onImport(): void;
  onStartTicket(contact: ContactDTO): void;
  onEdit(contact: ContactDTO): void;
  onDelete(contact: ContactDTO): void;
}

/** The email column gives way on narrower screens, the number column on phones (it moves under the name). */
const WIDE_ONLY = { display: { xs: "none", md: "table-cell" } } as const;
const NOT_PHONE = { display: { xs: "none", sm: "table-cell" } } as const;

function ContactSkeletonRows() {
  return Array.from({ length: 3 }, (_, row) => (
    <TableRow key={`skeleton-${row}`} aria-hidden>
      <TableCell>
        <Box sx={{ display: "flex", alignItems: "center", gap: 1.5 }}>
          <Skeleton variant="circular" width={40} height={40} />
          <Skeleton sx={{ flex: 1 }} />
        </Box>
      </TableCell>
      <TableCell sx={NOT_PHONE}>
        <Skeleton />
      </TableCell>
      <TableCell sx={WIDE_ONLY}>
        <Skeleton />
      </TableCell>
      <TableCell>
        <Skeleton />
      </TableCell>
    </TableRow>
  ));
}

/** The contacts, loading the next page when scrolled within 100 px of the end. */
export function ContactsTable({
  list,
  canDelete,
  onAdd,
  onImport,
  onStartTicket,
  onEdit,
  onDelete,
}: ContactsTableProps) {
  const { t } = useTranslation();
  const searching = list.search !== "";
  return (
    <InfiniteTable
      list={list}
      data-testid="contacts-scroller"
      aria-label={t("contacts.title")}
      columns={[
        { label: t("contacts.columns.name") },
        { label: t("contacts.columns.number"), sx: NOT_PHONE },
        { label: t("contacts.columns.email"), sx: WIDE_ONLY },
        { label: t("contacts.columns.actions"), align: "right" },
      ]}
      skeleton={<ContactSkeletonRows />}
      empty={t(searching ? "contacts.emptySearch" : "contacts.empty")}
      emptyActions={
        !searching && (
          <Stack direction="row" spacing={1}>
            <Button variant="outlined" size="small" onClick={onImport}>
              {t("contacts.import")}
            </Button>
            <Button variant="contained" size="small" onClick={onAdd}>
              {t("contacts.add")}
            </Button>
          </Stack>
        )
      }
      renderRow={(contact) => (
        <TableRow key={contact.id} hover>
          <TableCell sx={{ maxWidth: 0, width: { xs: "100%", sm: "40%" } }}>
            <Box sx={{ display: "flex", alignItems: "center", gap: 1.5, minWidth: 0 }}>
              <ContactAvatar contact={contact} />
              <Box sx={{ minWidth: 0 }}>
                <Typography variant="body2" noWrap sx={{ fontWeight: 500 }} title={contact.name}>
                  {contact.name}
                </Typography>
                <Typography
                  variant="caption"
                  color="text.secondary"
                  noWrap
                  component="p"
                  sx={{ display: { sm: "none" } }}
                >
                  {formatNumber(contact.number, contact.isGroup)}
                </Typography>
              </Box>
            </Box>
          </TableCell>
          <TableCell sx={{ ...NOT_PHONE, whiteSpace: "nowrap" }}>
            {formatNumber(contact.number, contact.isGroup)}
          </TableCell>
          <TableCell sx={{ ...WIDE_ONLY, maxWidth: 0, width: "30%" }}>
            <Typography variant="body2" noWrap color="text.secondary" title={contact.email}>
              {contact.email}
            </Typography>
          </TableCell>
          <TableCell align="right" sx={{ whiteSpace: "nowrap" }}>
            <Tooltip title={t("contacts.actions.startTicket")}>
              <IconButton
                size="small"
                aria-label={`${t("contacts.actions.startTicket")}: ${contact.name}`}
                onClick={() => onStartTicket(contact)}
                sx={{ color: "success.main" }}
              >
                <WhatsAppIcon fontSize="small" />
              </IconButton>
            </Tooltip>
            <Tooltip title={t("contacts.actions.edit")}>
              <IconButton
                size="small"
                aria-label={`${t("contacts.actions.edit")}: ${contact.name}`}
                onClick={() => onEdit(contact)}
              >
                <EditIcon fontSize="small" />
              </IconButton>
            </Tooltip>
            {canDelete && (
              <Tooltip title={t("contacts.actions.delete")}>
                <IconButton
                  size="small"
                  aria-label={`${t("contacts.actions.delete")}: ${contact.name}`}
                  onClick={() => onDelete(contact)}
                >
                  <DeleteIcon fontSize="small" />
                </IconButton>
              </Tooltip>
            )}
          </TableCell>
        </TableRow>
      )}
    />
  );
}

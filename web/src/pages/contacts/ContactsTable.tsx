import { LIMITS, type ContactDTO } from "@atende/contracts";
import DeleteIcon from "@mui/icons-material/DeleteOutlineOutlined";
import EditIcon from "@mui/icons-material/EditOutlined";
import WhatsAppIcon from "@mui/icons-material/WhatsApp";
import {
  Box,
  Button,
  IconButton,
  Skeleton,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Tooltip,
  Typography,
} from "@mui/material";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { ContactAvatar } from "../../components/ContactAvatar";
import { formatNumber } from "./format";

interface ContactsTableProps {
  contacts: ContactDTO[];
  loading: boolean;
  hasMore: boolean;
  searching: boolean;
  canDelete: boolean;
  onLoadMore(): void;
  /** The empty list's own actions (DESIGN: a sentence and an action when empty). */
  onAdd(): void;
  onImport(): void;
  onStartTicket(contact: ContactDTO): void;
  onEdit(contact: ContactDTO): void;
  onDelete(contact: ContactDTO): void;
}

const COLUMNS = 4;
/** The email column gives way on narrower screens, the number column on phones (it moves under the name). */
const WIDE_ONLY = { display: { xs: "none", md: "table-cell" } } as const;
const NOT_PHONE = { display: { xs: "none", sm: "table-cell" } } as const;

function SkeletonRows() {
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

function nearEnd(element: HTMLElement): boolean {
  return element.scrollHeight - element.scrollTop - element.clientHeight < LIMITS.infiniteScrollThresholdPx;
}

/** The contacts, loading the next page when scrolled within 100 px of the end. */
export function ContactsTable({
  contacts,
  loading,
  hasMore,
  searching,
  canDelete,
  onLoadMore,
  onAdd,
  onImport,
  onStartTicket,
  onEdit,
  onDelete,
}: ContactsTableProps) {
  const { t } = useTranslation();
  const scroller = useRef<HTMLDivElement>(null);

  // A first page that does not fill the box leaves nothing to scroll: ask for more right away.
  useEffect(() => {
    const element = scroller.current;
    if (element && hasMore && !loading && nearEnd(element)) onLoadMore();
  }, [contacts.length, hasMore, loading, onLoadMore]);

  return (
    <TableContainer
      ref={scroller}
      data-testid="contacts-scroller"
      onScroll={(event) => {
        if (hasMore && !loading && nearEnd(event.currentTarget)) onLoadMore();
      }}
      sx={{ flex: 1, minHeight: 0 }}
    >
      <Table stickyHeader size="small" aria-label={t("contacts.title")}>
        <TableHead>
          <TableRow>
            <TableCell>{t("contacts.columns.name")}</TableCell>
            <TableCell sx={NOT_PHONE}>{t("contacts.columns.number")}</TableCell>
            <TableCell sx={WIDE_ONLY}>{t("contacts.columns.email")}</TableCell>
            <TableCell align="right">{t("contacts.columns.actions")}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {contacts.map((contact) => (
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
          ))}
          {loading && <SkeletonRows />}
          {!loading && contacts.length === 0 && (
            <TableRow>
              <TableCell colSpan={COLUMNS}>
                <Stack spacing={2} sx={{ py: 4, alignItems: "center" }}>
                  <Typography color="text.secondary" sx={{ textAlign: "center" }}>
                    {t(searching ? "contacts.emptySearch" : "contacts.empty")}
                  </Typography>
                  {!searching && (
                    <Stack direction="row" spacing={1}>
                      <Button variant="outlined" size="small" onClick={onImport}>
                        {t("contacts.import")}
                      </Button>
                      <Button variant="contained" size="small" onClick={onAdd}>
                        {t("contacts.add")}
                      </Button>
                    </Stack>
                  )}
                </Stack>
              </TableCell>
            </TableRow>
          )}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

import type { ContactDTO, TicketDTO } from "@atende/contracts";
import CloseIcon from "@mui/icons-material/Close";
import ContentCopyIcon from "@mui/icons-material/ContentCopy";
import EditIcon from "@mui/icons-material/EditOutlined";
import {
  Avatar,
  Box,
  Button,
  Divider,
  IconButton,
  List,
  ListItem,
  ListItemText,
  Typography,
  useTheme,
} from "@mui/material";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "../../../api/toast";
import { formatDate } from "../../../i18n/format";
import { ContactDialog } from "../../../components/ContactDialog/ContactDialog";
import { NotesPanel } from "../../../components/NotesPanel";
import { fetchContact } from "./chatApi";
import { formatPhone, initials } from "./conversation";
import { TagChips } from "./TagChips";
import { contactKeys } from "../../../api/contacts";

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box component="section" sx={{ px: 2.5, py: 2 }}>
      <Typography variant="overline" color="text.secondary" component="h3" sx={{ lineHeight: 2 }}>
        {title}
      </Typography>
      {children}
    </Box>
  );
}

function Field({ label, value, copy }: { label: string; value: string; copy?: boolean }) {
  const { t } = useTranslation();
  return (
    <ListItem
      disableGutters
      secondaryAction={
        copy && value && navigator.clipboard ? (
          <IconButton
            edge="end"
            size="small"
            aria-label={t("chat.contact.copy", { label })}
            onClick={() =>
              void navigator.clipboard.writeText(value).then(() => toast(t("chat.menu.copied"), "success"))
            }
          >
            <ContentCopyIcon fontSize="small" />
          </IconButton>
        ) : undefined
      }
    >
      <ListItemText
        primary={value || "—"}
        secondary={label}
        slotProps={{ primary: { sx: { wordBreak: "break-word" } }, secondary: { sx: { fontSize: 12 } } }}
      />
    </ListItem>
  );
}

interface ContactDrawerProps {
  ticket: TicketDTO;
  onClose(): void;
}

/**
 * The contact beside the chat (320 px): picture, name, number, email with the edit form, the
 * ticket's notes and extra info. The full record comes from the contacts API; until it answers, the
 * ticket's copy is shown (and the edit button waits for it).
 */
export function ContactDrawer({ ticket, onClose }: ContactDrawerProps) {
  const { t } = useTranslation();
  const dark = useTheme().palette.mode === "dark";
  const full = useQuery({
    queryKey: contactKeys.detail(ticket.contactId),
    queryFn: ({ signal }) => fetchContact(ticket.contactId, signal),
    meta: { silent: true },
    retry: false,
  });
  const contact: Partial<ContactDTO> & TicketDTO["contact"] = { ...ticket.contact, ...full.data };
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<ContactDTO | null>(null);

  function closeEditor() {
    setEditing(null);
    void queryClient.invalidateQueries({ queryKey: contactKeys.detail(ticket.contactId) });
  }

  return (
    <Box
      component="aside"
      aria-label={t("chat.contact.title")}
      sx={{
        flex: 1,
        minWidth: 0,
        display: "flex",
        flexDirection: "column",
        borderLeft: 1,
        borderColor: "divider",
        bgcolor: "background.paper",
        overflowY: "auto",
      }}
    >
      <Box
        sx={{
          display: "flex",
          alignItems: "center",
          gap: 1,
          px: 1,
          minHeight: 60,
          bgcolor: dark ? "#202c33" : "#f0f2f5",
          borderBottom: 1,
          borderColor: "divider",
        }}
      >
        <IconButton aria-label={t("chat.close")} onClick={onClose}>
          <CloseIcon />
        </IconButton>
        <Typography component="h2" sx={{ fontWeight: 600 }}>
          {t("chat.contact.title")}
        </Typography>
      </Box>
      <Box
        sx={{ display: "flex", flexDirection: "column", alignItems: "center", gap: 1, px: 2.5, pt: 3, pb: 2 }}
      >
        <Avatar
          src={contact.profilePicUrl || undefined}
          alt=""
          sx={{ width: 140, height: 140, fontSize: 48, bgcolor: "#6a7175", color: "#fff" }}
        >
          {initials(contact.name)}
        </Avatar>
        <Typography variant="h6" component="p" sx={{ textAlign: "center", wordBreak: "break-word" }}>
          {contact.name}
        </Typography>
        <Typography color="text.secondary">{formatPhone(contact.number)}</Typography>
      </Box>
      <Divider />
      <Section title={t("chat.contact.data")}>
        <List dense disablePadding>
          <Field label={t("chat.contact.name")} value={contact.name} />
          <Field label={t("chat.contact.number")} value={formatPhone(contact.number)} copy />
          <Field label={t("chat.contact.email")} value={contact.email ?? ""} copy />
          {contact.createdAt && (
            <Field label={t("chat.contact.since")} value={formatDate(contact.createdAt)} />
          )}
        </List>
        <Button
          size="small"
          variant="outlined"
          startIcon={<EditIcon />}
          disabled={!full.data}
          onClick={() => full.data && setEditing(full.data)}
          sx={{ mt: 1 }}
        >
          {t("chat.contact.edit")}
        </Button>
        {editing && (
          <ContactDialog
            key={editing.id}
            contact={editing}
            onOpenExisting={setEditing}
            onClose={closeEditor}
          />
        )}
      </Section>
      <Divider />
      <NotesPanel ticketId={ticket.id} contactId={ticket.contactId} />
      {contact.extraInfo && contact.extraInfo.length > 0 && (
        <>
          <Divider />
          <Section title={t("chat.contact.extraInfo")}>
            <List dense disablePadding>
              {contact.extraInfo.map((info) => (
                <Field key={info.id} label={info.name} value={info.value} />
              ))}
            </List>
          </Section>
        </>
      )}
      <Divider />
      <Section title={t("chat.contact.ticket")}>
        <List dense disablePadding>
          <Field label={t("chat.contact.status")} value={t(`chat.status.${ticket.status}`)} />
          <Field
            label={t("chat.contact.assignee")}
            value={ticket.user?.name ?? t("chat.header.unassigned")}
          />
          <Field label={t("chat.contact.queue")} value={ticket.queue?.name ?? t("chat.contact.noQueue")} />
          <Field label={t("chat.contact.connection")} value={ticket.whatsapp?.name ?? "—"} />
        </List>
        <TagChips tags={ticket.tags} sx={{ mt: 1 }} />
      </Section>
    </Box>
  );
}

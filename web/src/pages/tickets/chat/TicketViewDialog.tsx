import type { TicketDTO } from "@atende/contracts";
import {
  Avatar,
  Box,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Typography,
} from "@mui/material";
import { useQuery } from "@tanstack/react-query";
import { useId } from "react";
import { useTranslation } from "react-i18next";
import { fetchTicket, ticketKeys } from "../../../api/tickets";
import { useSessionUser } from "../../../auth/AuthContext";
import { formatPhone, initials } from "./conversation";
import { MessageList } from "./MessageList";
import { useConversation } from "./useConversation";

function Conversation({ ticket }: { ticket: TicketDTO }) {
  const me = useSessionUser();
  const conversation = useConversation(ticket, { meId: me.id, readOnly: true });
  return <MessageList conversation={conversation} contactName={ticket.contact.name} meId={me.id} />;
}

/** A look into a ticket without taking it: the contact, who holds it, and the messages, read-only. */
export function TicketViewDialog({
  ticketId,
  open,
  onClose,
}: {
  ticketId: number;
  open: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const titleId = useId();
  const ticket = useQuery({
    queryKey: ticketKeys.byId(ticketId),
    queryFn: ({ signal }) => fetchTicket(ticketId, signal),
    enabled: open,
  });
  const data = ticket.data;

  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={titleId} maxWidth="md" fullWidth>
      <DialogTitle id={titleId} sx={{ display: "flex", alignItems: "center", gap: 1.5 }}>
        {data ? (
          <>
            <Avatar src={data.contact.profilePicUrl || undefined} alt="" sx={{ width: 40, height: 40 }}>
              {initials(data.contact.name)}
            </Avatar>
            <Box sx={{ minWidth: 0 }}>
              <Typography component="span" noWrap sx={{ display: "block", fontWeight: 600 }}>
                {data.contact.name}
              </Typography>
              <Typography
                variant="body2"
                component="span"
                color="text.secondary"
                noWrap
                sx={{ display: "block" }}
              >
                {formatPhone(data.contact.number)}
              </Typography>
            </Box>
          </>
        ) : (
          t("chat.view.title")
        )}
      </DialogTitle>
      {data && (
        <Typography variant="body2" sx={{ px: 3, pb: 1.5 }}>
          {t("chat.view.assignedTo")}{" "}
          <Box component="strong">{data.user?.name ?? t("chat.header.unassigned")}</Box>
          {data.queue && (
            <Box component="span" sx={{ color: "text.secondary" }}>
              {" · "}
              {data.queue.name}
            </Box>
          )}
        </Typography>
      )}
      <DialogContent dividers sx={{ p: 0, height: "60vh", display: "flex", flexDirection: "column" }}>
        {data && <Conversation ticket={data} />}
        {ticket.isPending && open && (
          <Box sx={{ flex: 1, display: "flex", alignItems: "center", justifyContent: "center" }}>
            <CircularProgress aria-label={t("common.loading")} />
          </Box>
        )}
        {ticket.isError && (
          <Typography sx={{ m: "auto" }} color="text.secondary">
            {t("chat.loadError")}
          </Typography>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} autoFocus>
          {t("chat.close")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

import type { TicketDTO } from "@atende/contracts";
import ArrowBackIcon from "@mui/icons-material/ArrowBack";
import CheckCircleIcon from "@mui/icons-material/CheckCircleOutlined";
import InfoIcon from "@mui/icons-material/InfoOutlined";
import ReplayIcon from "@mui/icons-material/Replay";
import SwapHorizIcon from "@mui/icons-material/SwapHoriz";
import UndoIcon from "@mui/icons-material/Undo";
import {
  Avatar,
  Box,
  Button,
  ButtonBase,
  IconButton,
  Tooltip,
  Typography,
  useMediaQuery,
  useTheme,
} from "@mui/material";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { SlaChip } from "../../../components/SlaChip";
import { useClock } from "../../../hooks/useClock";
import { formatPhone, initials } from "./conversation";

export type TicketAction = "accept" | "return" | "resolve" | "reopen";

interface ChatHeaderProps {
  ticket: TicketDTO;
  /** What the contact is doing right now (typing, recording). */
  presence: "composing" | "recording" | null;
  busy: TicketAction | null;
  onAction(action: TicketAction): void;
  onTransfer(): void;
  onToggleContact(): void;
  contactOpen: boolean;
  onBack(): void;
  /** The chat column's width: buttons fold into icons when it is tight. */
  width: number;
}

function ActionButton(props: {
  label: string;
  icon: ReactNode;
  compact: boolean;
  onClick(): void;
  loading?: boolean;
  variant?: "contained" | "outlined" | "text";
  color?: "primary" | "inherit";
}) {
  if (props.compact) {
    return (
      <Tooltip title={props.label}>
        <span>
          <IconButton
            aria-label={props.label}
            onClick={props.onClick}
            disabled={props.loading}
            color={props.color ?? "primary"}
          >
            {props.icon}
          </IconButton>
        </span>
      </Tooltip>
    );
  }
  return (
    <Button
      size="small"
      variant={props.variant ?? "outlined"}
      color={props.color ?? "primary"}
      startIcon={props.icon}
      loading={props.loading}
      onClick={props.onClick}
      sx={{ whiteSpace: "nowrap" }}
    >
      {props.label}
    </Button>
  );
}

/**
 * Who the ticket is with, who holds it and in which queue, its service-level chip, and what can be
 * done to it.
 */
export function ChatHeader(props: ChatHeaderProps) {
  const { ticket, presence, busy, onAction } = props;
  const { t } = useTranslation();
  const theme = useTheme();
  const dark = theme.palette.mode === "dark";
  const compact = props.width > 0 && props.width < 760;
  const tiny = props.width > 0 && props.width < 520;
  const narrow = !useMediaQuery(theme.breakpoints.up("md"), { noSsr: true });
  const contact = ticket.contact;
  const number = formatPhone(contact.number);
  const now = useClock();

  const subtitle = presence ? (
    <Typography variant="caption" component="p" noWrap sx={{ color: "primary.main", fontWeight: 500 }}>
      {t(presence === "recording" ? "chat.presence.recording" : "chat.presence.composing")}
    </Typography>
  ) : (
    <Typography variant="caption" component="p" noWrap color="text.secondary">
      {[
        number,
        ticket.user ? t("chat.header.assignedTo", { name: ticket.user.name }) : t("chat.header.unassigned"),
      ]
        .filter(Boolean)
        .join(" · ")}
      {ticket.queue && (
        <Box component="span" sx={{ ml: 0.75, display: "inline-flex", alignItems: "center", gap: 0.5 }}>
          ·
          <Box
            component="span"
            aria-hidden
            sx={{ width: 8, height: 8, borderRadius: "50%", bgcolor: ticket.queue.color }}
          />
          {ticket.queue.name}
        </Box>
      )}
    </Typography>
  );

  return (
    <Box
      component="header"
      sx={{
        display: "flex",
        alignItems: "center",
        gap: 1,
        px: { xs: 1, sm: 2 },
        py: 1,
        minHeight: 60,
        bgcolor: dark ? "#202c33" : "#f0f2f5",
        borderBottom: 1,
        borderColor: "divider",
      }}
    >
      {narrow && (
        <IconButton aria-label={t("chat.header.back")} onClick={props.onBack} edge="start">
          <ArrowBackIcon />
        </IconButton>
      )}
      {/* Outside the button: its initials are no part of the button's name (the name is what it
          shows, axe's label-content-name-mismatch), and a click on it does what the button does. */}
      <Avatar
        src={contact.profilePicUrl || undefined}
        alt=""
        aria-hidden
        onClick={props.onToggleContact}
        sx={{ width: 40, height: 40, bgcolor: "#6a7175", color: "#fff", cursor: "pointer", ml: 0.5 }}
      >
        {initials(contact.name)}
      </Avatar>
      <ButtonBase
        onClick={props.onToggleContact}
        aria-description={t("chat.header.contactDetails", { name: contact.name })}
        aria-expanded={props.contactOpen}
        sx={{
          display: "flex",
          alignItems: "center",
          gap: 1.5,
          flex: 1,
          minWidth: 0,
          justifyContent: "flex-start",
          borderRadius: 1,
          textAlign: "left",
          py: 0.25,
        }}
      >
        <Box sx={{ minWidth: 0, flex: 1 }}>
          <Typography component="h2" noWrap sx={{ fontWeight: 600, fontSize: 16, lineHeight: 1.3 }}>
            {contact.name || number}
          </Typography>
          {subtitle}
        </Box>
      </ButtonBase>
      <Box sx={{ display: "flex", alignItems: "center", gap: 1 }}>
        <SlaChip sla={ticket.sla} now={now} />
        {ticket.status === "pending" && (
          <ActionButton
            label={t("chat.actions.accept")}
            icon={<CheckCircleIcon />}
            compact={tiny}
            variant="contained"
            loading={busy === "accept"}
            onClick={() => onAction("accept")}
          />
        )}
        {ticket.status === "open" && (
          <>
            <ActionButton
              label={t("chat.actions.return")}
              icon={<UndoIcon />}
              compact={compact}
              color="inherit"
              loading={busy === "return"}
              onClick={() => onAction("return")}
            />
            <ActionButton
              label={t("chat.actions.transfer")}
              icon={<SwapHorizIcon />}
              compact={compact}
              color="inherit"
              onClick={props.onTransfer}
            />
            <ActionButton
              label={t("chat.actions.resolve")}
              icon={<CheckCircleIcon />}
              compact={tiny}
              variant="contained"
              loading={busy === "resolve"}
              onClick={() => onAction("resolve")}
            />
          </>
        )}
        {ticket.status === "closed" && (
          <ActionButton
            label={t("chat.actions.reopen")}
            icon={<ReplayIcon />}
            compact={tiny}
            variant="contained"
            loading={busy === "reopen"}
            onClick={() => onAction("reopen")}
          />
        )}
        <Tooltip title={t("chat.contact.title")}>
          <IconButton
            aria-label={t("chat.contact.title")}
            aria-pressed={props.contactOpen}
            onClick={props.onToggleContact}
            color={props.contactOpen ? "primary" : "default"}
          >
            <InfoIcon />
          </IconButton>
        </Tooltip>
      </Box>
    </Box>
  );
}

import type { TicketDTO } from "@atende/contracts";
import PersonIcon from "@mui/icons-material/PersonOutlined";
import PhoneIcon from "@mui/icons-material/PhoneIphoneOutlined";
import VisibilityIcon from "@mui/icons-material/VisibilityOutlined";
import { Box, Button, IconButton, ListItemButton, Stack, Tooltip, Typography } from "@mui/material";
import { alpha, useTheme, type Theme } from "@mui/material/styles";
import { memo, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { formatDate, formatTime } from "../../i18n/format";
import { elapsedSince, type ElapsedTone } from "./elapsed";
import { TicketAvatar } from "./TicketAvatar";

export type TicketAction = "accept" | "close";

interface TicketListItemProps {
  ticket: TicketDTO;
  selected: boolean;
  /** The logged-in user: their own tickets do not repeat their name. */
  viewerId: number;
  /** The shared clock (refreshed every 30 s) for the time and elapsed labels. */
  now: number;
  /** The action running on this ticket, if any. */
  busy: TicketAction | null;
  onOpen(ticket: TicketDTO): void;
  onAccept(ticket: TicketDTO): void;
  onClose(ticket: TicketDTO): void;
  /** Admins peek at a waiting conversation without taking it. */
  onSpy?: (ticket: TicketDTO) => void;
}

/** Read by screen readers, not shown. */
const visuallyHidden = {
  position: "absolute",
  width: 1,
  height: 1,
  overflow: "hidden",
  clip: "rect(0 0 0 0)",
  whiteSpace: "nowrap",
} as const;

/** Today's tickets show the time; older ones the date. */
function timeOrDate(value: string, now: number): string {
  return formatDate(value) === formatDate(new Date(now)) ? formatTime(value) : formatDate(value);
}

/** The spec's colours (green, orange, red), at AA contrast on either theme's paper. */
function toneColor(theme: Theme, tone: ElapsedTone): string {
  const dark = theme.palette.mode === "dark";
  switch (tone) {
    case "fresh":
      return dark ? "#25d366" : "#1b7f3b";
    case "late":
      return dark ? "#ffb74d" : "#b45309";
    case "overdue":
      return dark ? "#ff8a80" : "#c62828";
    default:
      return theme.palette.text.secondary;
  }
}

/** Black or white text, whichever reads better on a tag's colour. */
function textOn(color: string): string {
  const hex = /^#?([0-9a-f]{6})$/i.exec(color)?.[1];
  if (!hex) return "#fff";
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255);
  const lum = 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  return lum > 0.55 ? "#111b21" : "#fff";
}

function Meta({ icon, children, title }: { icon?: ReactNode; children: ReactNode; title?: string }) {
  return (
    <Box
      component="span"
      title={title}
      sx={{
        display: "inline-flex",
        alignItems: "center",
        gap: 0.25,
        minWidth: 0,
        maxWidth: 140,
        color: "text.secondary",
        typography: "caption",
        lineHeight: 1.4,
        "& svg": { fontSize: 14, flexShrink: 0 },
      }}
    >
      {icon}
      <Box component="span" sx={{ overflow: "hidden", textOverflow: "ellipsis", whiteSpace: "nowrap" }}>
        {children}
      </Box>
    </Box>
  );
}

function ElapsedLabel({ updatedAt, now }: { updatedAt: string; now: number }) {
  const { t } = useTranslation();
  const theme = useTheme();
  const elapsed = elapsedSince(updatedAt, now);
  if (!elapsed) return null;
  return (
    <Box
      component="span"
      data-testid="elapsed-label"
      data-tone={elapsed.tone}
      sx={{ typography: "caption", fontWeight: 600, lineHeight: 1.4, color: toneColor(theme, elapsed.tone) }}
    >
      {t(`tickets.item.elapsed.${elapsed.unit}`, { count: elapsed.value })}
    </Box>
  );
}

/**
 * One ticket in the list: queue colour as a thin bar at the left, avatar, contact and last message,
 * time and unread badge at the right, then queue, connection, agent, waiting time and tags. A waiting
 * ticket is not opened by a click: it offers accept and close instead.
 */
export const TicketListItem = memo(function TicketListItem({
  ticket,
  selected,
  viewerId,
  now,
  busy,
  onOpen,
  onAccept,
  onClose,
  onSpy,
}: TicketListItemProps) {
  const { t } = useTranslation();
  const pending = ticket.status === "pending";
  // The ticket on screen is being read: its badge would only repeat what the chat shows.
  const unread = ticket.unreadMessages > 0 && !selected;
  const name = ticket.contact.name || ticket.contact.number;
  const queueColor = ticket.queue?.color ?? "#9e9e9e";

  const body = (
    <>
      <TicketAvatar contact={ticket.contact} />
      <Box sx={{ flex: 1, minWidth: 0, ml: 1.5 }}>
        <Stack direction="row" spacing={1} sx={{ alignItems: "baseline" }}>
          <Typography
            component="span"
            variant="body1"
            noWrap
            sx={{ flex: 1, minWidth: 0, fontWeight: unread ? 700 : 600, lineHeight: 1.4 }}
          >
            {name}
          </Typography>
          <Typography
            component="span"
            variant="caption"
            sx={{
              flexShrink: 0,
              color: unread ? "primary.main" : "text.secondary",
              fontWeight: unread ? 600 : 400,
            }}
          >
            {timeOrDate(ticket.updatedAt, now)}
          </Typography>
        </Stack>
        <Stack direction="row" spacing={1} sx={{ alignItems: "center", minHeight: 22 }}>
          <Typography
            component="span"
            variant="body2"
            noWrap
            sx={{
              flex: 1,
              minWidth: 0,
              color: unread ? "text.primary" : "text.secondary",
              fontStyle: ticket.lastMessage ? undefined : "italic",
            }}
          >
            {ticket.lastMessage || t("tickets.item.noMessage")}
          </Typography>
          {unread && (
            <>
              <Box
                component="span"
                aria-hidden
                sx={{
                  flexShrink: 0,
                  minWidth: 20,
                  height: 20,
                  px: 0.75,
                  borderRadius: 10,
                  display: "inline-grid",
                  placeItems: "center",
                  bgcolor: "primary.main",
                  color: "primary.contrastText",
                  typography: "caption",
                  fontWeight: 700,
                  lineHeight: 1,
                }}
              >
                {ticket.unreadMessages > 99 ? "99+" : ticket.unreadMessages}
              </Box>
              <Box component="span" sx={visuallyHidden}>
                {t("tickets.item.unread", { count: ticket.unreadMessages })}
              </Box>
            </>
          )}
        </Stack>
        <Stack
          direction="row"
          useFlexGap
          sx={{ flexWrap: "wrap", alignItems: "center", columnGap: 1, rowGap: 0.25, mt: 0.25 }}
        >
          <Meta
            icon={
              <Box
                component="span"
                sx={{ width: 8, height: 8, borderRadius: "50%", bgcolor: queueColor, flexShrink: 0 }}
              />
            }
          >
            {ticket.queue?.name ?? t("tickets.item.noQueue")}
          </Meta>
          {ticket.whatsapp && (
            <Meta icon={<PhoneIcon />} title={t("tickets.item.connection", { name: ticket.whatsapp.name })}>
              {ticket.whatsapp.name}
            </Meta>
          )}
          {ticket.user && ticket.user.id !== viewerId && (
            <Meta icon={<PersonIcon />} title={t("tickets.item.assignedTo", { name: ticket.user.name })}>
              {ticket.user.name}
            </Meta>
          )}
          <ElapsedLabel updatedAt={ticket.updatedAt} now={now} />
          {ticket.tags.map((tag) => (
            <Box
              key={tag.id}
              component="span"
              sx={{
                px: 0.75,
                borderRadius: 1,
                bgcolor: tag.color,
                color: textOn(tag.color),
                typography: "caption",
                fontSize: 11,
                fontWeight: 600,
                lineHeight: "18px",
                maxWidth: 120,
                overflow: "hidden",
                textOverflow: "ellipsis",
                whiteSpace: "nowrap",
              }}
            >
              {tag.name}
            </Box>
          ))}
        </Stack>
        {pending && (
          <Stack direction="row" spacing={1} sx={{ mt: 1, alignItems: "center" }}>
            <Button
              size="small"
              variant="contained"
              disableElevation
              data-ticket-focus
              loading={busy === "accept"}
              disabled={busy !== null}
              onClick={() => onAccept(ticket)}
              aria-label={`${t("tickets.item.accept")}: ${name}`}
              sx={{ py: 0.25, minWidth: 0 }}
            >
              {t("tickets.item.accept")}
            </Button>
            <Button
              size="small"
              variant="outlined"
              color="inherit"
              loading={busy === "close"}
              disabled={busy !== null}
              onClick={() => onClose(ticket)}
              aria-label={`${t("tickets.item.close")}: ${name}`}
              sx={{ py: 0.25, minWidth: 0, color: "text.secondary", borderColor: "divider" }}
            >
              {t("tickets.item.close")}
            </Button>
            {onSpy && (
              <Tooltip title={t("tickets.item.spy")}>
                <IconButton
                  size="small"
                  aria-label={`${t("tickets.item.spy")}: ${name}`}
                  onClick={() => onSpy(ticket)}
                >
                  <VisibilityIcon fontSize="small" />
                </IconButton>
              </Tooltip>
            )}
          </Stack>
        )}
      </Box>
    </>
  );

  const shared = {
    position: "relative",
    display: "flex",
    alignItems: "flex-start",
    px: 2,
    py: 1.25,
    borderBottom: 1,
    borderColor: "divider",
    // The queue's colour as a thin bar on the left edge.
    "&::before": {
      content: '""',
      position: "absolute",
      left: 0,
      top: 0,
      bottom: 0,
      width: 4,
      bgcolor: queueColor,
    },
  } as const;

  return (
    <Box component="li" data-ticket-id={ticket.id} data-status={ticket.status} sx={{ listStyle: "none" }}>
      {pending ? (
        <Box sx={(theme) => ({ ...shared, bgcolor: alpha(theme.palette.warning.main, 0.04) })}>{body}</Box>
      ) : (
        <ListItemButton
          selected={selected}
          data-ticket-focus
          aria-current={selected ? "true" : undefined}
          onClick={() => onOpen(ticket)}
          sx={shared}
        >
          {body}
        </ListItemButton>
      )}
    </Box>
  );
});

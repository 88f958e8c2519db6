import type { TicketDTO } from "@atende/contracts";
import PersonIcon from "@mui/icons-material/PersonOutlined";
import PhoneIcon from "@mui/icons-material/PhoneIphoneOutlined";
import VisibilityIcon from "@mui/icons-material/VisibilityOutlined";
import { Button, IconButton, ListItemButton, Tooltip } from "@mui/material";
import { alpha, styled } from "@mui/material/styles";
import { memo, type CSSProperties, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { formatDate, formatTime } from "../../i18n/format";
import { elapsedSince } from "./elapsed";
import { ContactAvatar } from "../../components/ContactAvatar";
import { plainText } from "../../components/MessageText";
import { SlaChip, slaChipCss } from "../../components/SlaChip";
import { visuallyHidden } from "../../components/visuallyHidden";

export type TicketAction = "accept" | "close";

interface TicketListItemProps {
  ticket: TicketDTO;
  /** The row's place in the windowed list (TicketsList renders only the rows in view). */
  index: number;
  /** How many tickets the list has in all, for screen readers (-1 when unknown). */
  setSize: number;
  /** Lets the list measure the row's height and place it (it writes the row's offset itself). */
  measureRef: (element: HTMLElement | null) => void;
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

/** Today's tickets show the time; older ones the date. */
function timeOrDate(value: string, now: number): string {
  return formatDate(value) === formatDate(new Date(now)) ? formatTime(value) : formatDate(value);
}

/** Black or white text, whichever reads better on a tag's colour. */
function textOn(color: string): string {
  const hex = /^#?([0-9a-f]{6})$/i.exec(color)?.[1];
  if (!hex) return "#fff";
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255);
  const lum = 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  return lum > 0.55 ? "#111b21" : "#fff";
}

const ellipsis = { overflow: "hidden", textOverflow: "ellipsis", whiteSpace: "nowrap" } as const;

/**
 * The list element that holds ticket rows, with the rows' styles. They are written once here, for
 * the whole list, rather than by each row's components: rows mount by the dozen while the list
 * scrolls, and plain elements with class names are what keeps that within a frame.
 */
export const TicketRows = styled("ul")(({ theme }) => {
  const dark = theme.palette.mode === "dark";
  const caption = { ...theme.typography.caption, lineHeight: 1.4 };
  return {
    margin: 0,
    padding: 0,
    position: "relative",
    "& > li": { listStyle: "none", position: "absolute", top: 0, left: 0, width: "100%" },
    "& .ticket-row": {
      position: "relative",
      display: "flex",
      alignItems: "flex-start",
      padding: theme.spacing(1.25, 2),
      borderBottom: `1px solid ${theme.palette.divider}`,
      // The queue's colour as a thin bar on the left edge.
      "&::before": {
        content: '""',
        position: "absolute",
        left: 0,
        top: 0,
        bottom: 0,
        width: 4,
        backgroundColor: "var(--queue-color)",
      },
    },
    "& .ticket-waiting": { backgroundColor: alpha(theme.palette.warning.main, 0.04) },
    "& .ticket-main": { flex: 1, minWidth: 0, marginLeft: theme.spacing(1.5) },
    "& .ticket-line": { display: "flex", alignItems: "baseline", gap: theme.spacing(1) },
    "& .ticket-name": {
      ...theme.typography.body1,
      ...ellipsis,
      flex: 1,
      minWidth: 0,
      fontWeight: 600,
      lineHeight: 1.4,
    },
    "& .ticket-time": { ...theme.typography.caption, flexShrink: 0, color: theme.palette.text.secondary },
    "& .sla-chip": {
      ...slaChipCss(theme),
      position: "relative",
      alignSelf: "center",
      "& .sla-chip-sr": visuallyHidden,
    },
    "& .ticket-preview": {
      display: "flex",
      alignItems: "center",
      gap: theme.spacing(1),
      minHeight: 22,
    },
    "& .ticket-last": {
      ...theme.typography.body2,
      ...ellipsis,
      flex: 1,
      minWidth: 0,
      color: theme.palette.text.secondary,
    },
    "& .ticket-no-message": { fontStyle: "italic" },
    "& .ticket-unread .ticket-name": { fontWeight: 700 },
    "& .ticket-unread .ticket-time": { color: theme.palette.primary.main, fontWeight: 600 },
    "& .ticket-unread .ticket-last": { color: theme.palette.text.primary },
    "& .ticket-badge": {
      ...theme.typography.caption,
      flexShrink: 0,
      minWidth: 20,
      height: 20,
      padding: theme.spacing(0, 0.75),
      borderRadius: 10,
      display: "inline-grid",
      placeItems: "center",
      backgroundColor: theme.palette.primary.main,
      color: theme.palette.primary.contrastText,
      fontWeight: 700,
      lineHeight: 1,
    },
    "& .ticket-sr-only": visuallyHidden,
    "& .ticket-meta": {
      display: "flex",
      flexWrap: "wrap",
      alignItems: "center",
      columnGap: theme.spacing(1),
      rowGap: theme.spacing(0.25),
      marginTop: theme.spacing(0.25),
    },
    "& .ticket-meta-item": {
      ...caption,
      display: "inline-flex",
      alignItems: "center",
      gap: theme.spacing(0.25),
      minWidth: 0,
      maxWidth: 140,
      color: theme.palette.text.secondary,
      "& svg": { fontSize: 14, flexShrink: 0 },
      "& > span:last-of-type": ellipsis,
    },
    "& .ticket-queue-dot": {
      width: 8,
      height: 8,
      borderRadius: "50%",
      flexShrink: 0,
      backgroundColor: "var(--queue-color)",
    },
    // The spec's colours (green, orange, red), at AA contrast on either theme's paper.
    "& .ticket-elapsed": { ...caption, fontWeight: 600, color: theme.palette.text.secondary },
    '& .ticket-elapsed[data-tone="fresh"]': { color: dark ? "#25d366" : "#1b7f3b" },
    '& .ticket-elapsed[data-tone="late"]': { color: dark ? "#ffb74d" : "#b45309" },
    '& .ticket-elapsed[data-tone="overdue"]': { color: dark ? "#ff8a80" : "#c62828" },
    "& .ticket-tag": {
      ...theme.typography.caption,
      ...ellipsis,
      padding: theme.spacing(0, 0.75),
      borderRadius: theme.shape.borderRadius,
      fontSize: 11,
      fontWeight: 600,
      lineHeight: "18px",
      maxWidth: 120,
    },
    "& .ticket-actions": {
      display: "flex",
      alignItems: "center",
      gap: theme.spacing(1),
      marginTop: theme.spacing(1),
    },
  };
});

function Meta({ icon, children, title }: { icon?: ReactNode; children: ReactNode; title?: string }) {
  return (
    <span className="ticket-meta-item" title={title}>
      {icon}
      <span>{children}</span>
    </span>
  );
}

function ElapsedLabel({ updatedAt, now }: { updatedAt: string; now: number }) {
  const { t } = useTranslation();
  const elapsed = elapsedSince(updatedAt, now);
  if (!elapsed) return null;
  return (
    <span className="ticket-elapsed" data-testid="elapsed-label" data-tone={elapsed.tone}>
      {t(`tickets.item.elapsed.${elapsed.unit}`, { count: elapsed.value })}
    </span>
  );
}

/**
 * One ticket in the list (inside TicketRows, which styles it): queue colour as a thin bar at the
 * left, avatar, contact and last message, service-level chip, time and unread badge at the right,
 * then queue, connection, agent, waiting time and tags. A waiting ticket is not opened by a click:
 * it offers accept and close instead.
 */
export const TicketListItem = memo(function TicketListItem({
  ticket,
  index,
  setSize,
  measureRef,
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
  const queueColor = { "--queue-color": ticket.queue?.color ?? "#9e9e9e" } as CSSProperties;

  const body = (
    <>
      <ContactAvatar contact={ticket.contact} />
      <div className="ticket-main">
        <div className="ticket-line">
          <span className="ticket-name">{name}</span>
          <SlaChip sla={ticket.sla} now={now} plain />
          <span className="ticket-time">{timeOrDate(ticket.updatedAt, now)}</span>
        </div>
        <div className="ticket-preview">
          <span className={ticket.lastMessage ? "ticket-last" : "ticket-last ticket-no-message"}>
            {ticket.lastMessage ? plainText(ticket.lastMessage) : t("tickets.item.noMessage")}
          </span>
          {unread && (
            <>
              <span className="ticket-badge" aria-hidden>
                {ticket.unreadMessages > 99 ? "99+" : ticket.unreadMessages}
              </span>
              <span className="ticket-sr-only">
                {t("tickets.item.unread", { count: ticket.unreadMessages })}
              </span>
            </>
          )}
        </div>
        <div className="ticket-meta">
          <Meta icon={<span className="ticket-queue-dot" />}>
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
            <span
              key={tag.id}
              className="ticket-tag"
              style={{ backgroundColor: tag.color, color: textOn(tag.color) }}
            >
              {tag.name}
            </span>
          ))}
        </div>
        {pending && (
          <div className="ticket-actions">
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
          </div>
        )}
      </div>
    </>
  );

  return (
    <li
      ref={measureRef}
      data-index={index}
      data-ticket-id={ticket.id}
      data-status={ticket.status}
      aria-posinset={index + 1}
      aria-setsize={setSize}
      className={unread ? "ticket-unread" : undefined}
    >
      {pending ? (
        <div className="ticket-row ticket-waiting" style={queueColor}>
          {body}
        </div>
      ) : (
        <ListItemButton
          selected={selected}
          data-ticket-focus
          aria-current={selected ? "true" : undefined}
          onClick={() => onOpen(ticket)}
          className="ticket-row"
          style={queueColor}
        >
          {body}
        </ListItemButton>
      )}
    </li>
  );
});

import type { TicketDTO } from "@atende/contracts";
import { useDraggable } from "@dnd-kit/core";
import DragIndicatorIcon from "@mui/icons-material/DragIndicator";
import OpenInNewIcon from "@mui/icons-material/OpenInNew";
import { Box, Button, IconButton, Paper, Stack, Typography } from "@mui/material";
import { forwardRef, type HTMLAttributes, type KeyboardEventHandler, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router-dom";
import { dayOf, formatDate, formatTime } from "../../i18n/format";
import { TagChip } from "../../components/TagChip";
import { ContactAvatar } from "../../components/ContactAvatar";
import { SlaChip } from "../../components/SlaChip";
import { useClock } from "../../hooks/useClock";

/** Today's tickets (on the company's clock) show the time, older ones the date. */
function when(value: string): string {
  return dayOf(value) === dayOf(new Date()) ? formatTime(value) : formatDate(value);
}

interface CardViewProps extends HTMLAttributes<HTMLDivElement> {
  ticket: TicketDTO;
  /** Tags that are lanes: the card shows only its other tags. */
  laneIds: ReadonlySet<number>;
  /** The floating copy under the pointer while dragging. */
  lifted?: boolean;
  /** The card left in place while its copy is dragged. */
  placeholder?: boolean;
  /** A fixed width (the floating copy, outside any lane). */
  width?: number;
  /** What lifts the card from the keyboard (the floating copy shows a plain icon in its place). */
  handle?: ReactNode;
}

/**
 * A ticket on the board: contact, last message, time, queue (the thin left bar in its colour), its
 * service-level chip, the handle that moves it and a button to open it. The card itself is no button: a screen reader reads
 * it as an article named after the contact, holding its two controls side by side.
 */
export const CardView = forwardRef<HTMLDivElement, CardViewProps>(function CardView(
  { ticket, laneIds, lifted = false, placeholder = false, width, handle, ...rest },
  ref,
) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const name = ticket.contact.name || ticket.contact.number;
  const otherTags = ticket.tags.filter((tag) => !laneIds.has(tag.id));
  const now = useClock();
  return (
    <Paper
      ref={ref}
      component="article"
      variant="outlined"
      aria-label={t("kanban.cardLabel", { name })}
      data-ticket-id={ticket.id}
      {...rest}
      sx={{
        position: "relative",
        width,
        // In a full lane the cards keep their height and the lane scrolls.
        flexShrink: 0,
        p: 1.25,
        pl: 1.75,
        overflow: "hidden",
        cursor: lifted ? "grabbing" : "grab",
        opacity: placeholder ? 0.4 : 1,
        boxShadow: lifted ? 8 : 0,
        transform: lifted ? "rotate(2deg)" : undefined,
        touchAction: "none",
        "&::before": {
          content: '""',
          position: "absolute",
          inset: "0 auto 0 0",
          width: 4,
          bgcolor: ticket.queue?.color ?? "grey.400",
        },
      }}
    >
      <Stack direction="row" spacing={1.25} sx={{ alignItems: "flex-start" }}>
        <ContactAvatar contact={ticket.contact} size={36} />
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Stack direction="row" spacing={1} sx={{ alignItems: "baseline" }}>
            <Typography variant="subtitle2" noWrap sx={{ flex: 1, fontWeight: 600 }}>
              {name}
            </Typography>
            <Typography variant="caption" color="text.secondary" sx={{ flexShrink: 0 }}>
              {when(ticket.updatedAt)}
            </Typography>
          </Stack>
          <Typography
            variant="body2"
            color="text.secondary"
            sx={{
              display: "-webkit-box",
              WebkitLineClamp: 2,
              WebkitBoxOrient: "vertical",
              overflow: "hidden",
              wordBreak: "break-word",
              minHeight: "1.43em",
            }}
          >
            {ticket.lastMessage}
          </Typography>
        </Box>
      </Stack>
      {otherTags.length > 0 && (
        <Stack direction="row" sx={{ flexWrap: "wrap", gap: 0.5, mt: 1 }}>
          {otherTags.slice(0, 3).map((tag) => (
            <TagChip key={tag.id} name={tag.name} color={tag.color} sx={{ height: 20, fontSize: 11 }} />
          ))}
        </Stack>
      )}
      <Stack direction="row" spacing={1} sx={{ alignItems: "center", mt: 1 }}>
        {handle ?? <DragIndicatorIcon fontSize="small" color="action" aria-hidden />}
        <Typography variant="caption" color="text.secondary" noWrap sx={{ flex: 1, minWidth: 0 }}>
          {ticket.queue?.name ?? t("kanban.noQueue")} · {t(`kanban.status.${ticket.status}`)}
          {ticket.user ? ` · ${ticket.user.name}` : ""}
        </Typography>
        <SlaChip sla={ticket.sla} now={now} />
        <Button
          size="small"
          endIcon={<OpenInNewIcon fontSize="small" />}
          // A press on the button is a click, never the start of a drag.
          onPointerDown={(event) => event.stopPropagation()}
          onClick={() => void navigate(`/tickets/${ticket.uuid}`)}
          sx={{ flexShrink: 0, py: 0 }}
        >
          {t("kanban.openTicket")}
        </Button>
      </Stack>
    </Paper>
  );
});

/**
 * A card that can be dragged to another lane: with the pointer or a finger from anywhere on it, with
 * the keyboard from its Move button (space, arrows, space).
 */
export function KanbanCard({ ticket, laneIds }: { ticket: TicketDTO; laneIds: ReadonlySet<number> }) {
  const { t } = useTranslation();
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, isDragging } = useDraggable({
    id: `ticket-${ticket.id}`,
    data: { ticket },
  });
  const { onKeyDown, ...pointerListeners } = listeners ?? {};
  return (
    <CardView
      ref={setNodeRef}
      ticket={ticket}
      laneIds={laneIds}
      placeholder={isDragging}
      {...pointerListeners}
      handle={
        <IconButton
          ref={setActivatorNodeRef}
          size="small"
          {...attributes}
          aria-label={t("kanban.moveCard", { name: ticket.contact.name || ticket.contact.number })}
          onKeyDown={onKeyDown as KeyboardEventHandler<HTMLButtonElement> | undefined}
          sx={{
            p: 0.25,
            cursor: "grab",
            "&.Mui-focusVisible": { outline: "2px solid", outlineColor: "primary.main", outlineOffset: 1 },
          }}
        >
          <DragIndicatorIcon fontSize="small" />
        </IconButton>
      }
    />
  );
}

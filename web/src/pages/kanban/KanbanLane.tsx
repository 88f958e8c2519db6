import type { TicketDTO } from "@atende/contracts";
import { useDroppable } from "@dnd-kit/core";
import { Box, Chip, Paper, Stack, Typography, useTheme } from "@mui/material";
import { useTranslation } from "react-i18next";
import { type Lane, laneKey } from "./board";
import { KanbanCard } from "./KanbanCard";

interface KanbanLaneProps {
  lane: Lane;
  laneIds: ReadonlySet<number>;
}

export const LANE_WIDTH = 300;

/** One column: a header in the lane's colour with its count, and the cards dropped in it. */
export function KanbanLane({ lane, laneIds }: KanbanLaneProps) {
  const { t } = useTranslation();
  const theme = useTheme();
  const { setNodeRef, isOver } = useDroppable({ id: laneKey(lane.id) });
  const name = lane.tag?.name ?? t("kanban.openLane");
  const color = lane.tag?.color ?? theme.palette.grey[500];
  return (
    <Paper
      component="section"
      variant="outlined"
      aria-label={t("kanban.laneLabel", { name, count: lane.tickets.length })}
      data-lane={laneKey(lane.id)}
      sx={{
        width: LANE_WIDTH,
        flexShrink: 0,
        display: "flex",
        flexDirection: "column",
        maxHeight: "100%",
        bgcolor: theme.palette.mode === "dark" ? "background.default" : "grey.50",
        borderTop: `4px solid ${color}`,
        overflow: "hidden",
      }}
    >
      <Stack direction="row" spacing={1} sx={{ alignItems: "center", px: 1.5, py: 1.25 }}>
        <Box sx={{ width: 10, height: 10, borderRadius: "50%", bgcolor: color, flexShrink: 0 }} aria-hidden />
        <Typography component="h2" variant="subtitle1" noWrap sx={{ flex: 1, fontWeight: 600 }}>
          {name}
        </Typography>
        <Chip size="small" label={lane.tickets.length} aria-hidden />
      </Stack>
      <Box
        ref={setNodeRef}
        sx={{
          flex: 1,
          minHeight: 120,
          overflowY: "auto",
          px: 1,
          pb: 1,
          display: "flex",
          flexDirection: "column",
          gap: 1,
          borderRadius: 1,
          outline: isOver ? `2px dashed ${theme.palette.primary.main}` : "none",
          outlineOffset: -4,
          bgcolor: isOver ? "action.hover" : undefined,
          transition: theme.transitions.create("background-color"),
        }}
      >
        {lane.tickets.map((ticket: TicketDTO) => (
          <KanbanCard key={ticket.id} ticket={ticket} laneIds={laneIds} />
        ))}
        {lane.tickets.length === 0 && (
          <Typography
            variant="body2"
            color="text.secondary"
            sx={{
              textAlign: "center",
              py: 3,
              border: 1,
              borderColor: "divider",
              borderStyle: "dashed",
              borderRadius: 1,
            }}
          >
            {t("kanban.emptyLane")}
          </Typography>
        )}
      </Box>
    </Paper>
  );
}

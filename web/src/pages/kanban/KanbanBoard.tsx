import { kanbanLaneOf, type TicketDTO } from "@atende/contracts";
import {
  type Announcements,
  type CollisionDetection,
  DndContext,
  type DragEndEvent,
  type DragStartEvent,
  DragOverlay,
  type KeyboardCoordinateGetter,
  KeyboardSensor,
  PointerSensor,
  pointerWithin,
  rectIntersection,
  useSensor,
  useSensors,
} from "@dnd-kit/core";
import { Box } from "@mui/material";
import { useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { type Lane, type LaneId, laneFromKey, laneKey } from "./board";
import { CardView } from "./KanbanCard";
import { KanbanLane, LANE_WIDTH } from "./KanbanLane";

/** Under the pointer when there is one; else the lane the card overlaps most (keyboard drags). */
const collisions: CollisionDetection = (args) => {
  const hits = pointerWithin(args);
  return hits.length ? hits : rectIntersection(args);
};

/**
 * With the keyboard, left and right arrows jump the lifted card to the previous or next lane.
 * The card's measured place lags a render behind: a second arrow pressed before it (a held key,
 * a quick double press) would start from the old lane again and land one lane short, so the lane
 * aimed at last is remembered until the card is measured somewhere else.
 */
type Aim = { from: number; index: number } | null;
function laneJumper(aimed: { current: Aim }): KeyboardCoordinateGetter {
  return (event, { currentCoordinates, context }) => {
    const step = event.code === "ArrowRight" ? 1 : event.code === "ArrowLeft" ? -1 : 0;
    const card = context.collisionRect;
    if (!step || !card) return undefined;
    event.preventDefault();
    const lanes = [...context.droppableRects.values()].sort((x, y) => x.left - y.left);
    const center = card.left + card.width / 2;
    let index = lanes.findIndex((rect) => center >= rect.left && center <= rect.left + rect.width);
    if (index === -1) {
      const distances = lanes.map((rect) => Math.abs(rect.left + rect.width / 2 - center));
      index = distances.indexOf(Math.min(...distances));
    }
    if (aimed.current?.from === card.left) index = aimed.current.index;
    const target = lanes[index + step];
    if (!target) return currentCoordinates;
    aimed.current = { from: card.left, index: index + step };
    return { x: currentCoordinates.x + (target.left + target.width / 2 - center), y: currentCoordinates.y };
  };
}

interface KanbanBoardProps {
  lanes: Lane[];
  onMove(ticket: TicketDTO, to: LaneId): void;
}

/** The lanes side by side; a card dragged onto another lane is moved there. */
export function KanbanBoard({ lanes, onMove }: KanbanBoardProps) {
  const { t } = useTranslation();
  const [lifted, setLifted] = useState<TicketDTO | null>(null);
  // The lane last announced: the card's own lane at the start, so the lift is not talked over.
  const announcedLane = useRef<string | null>(null);
  // Forgotten at each lift: the next drag starts from where its card is.
  const aimed = useRef<Aim>(null);
  const laneJump = useMemo(() => laneJumper(aimed), []);
  const sensors = useSensors(
    // A few pixels of travel before a drag starts, so a click on the card's button stays a click.
    useSensor(PointerSensor, { activationConstraint: { distance: 6 } }),
    // An instant scroll: with a smooth one, a second arrow pressed while the board still glides
    // would measure the lanes mid-way and land one lane short.
    useSensor(KeyboardSensor, { coordinateGetter: laneJump, scrollBehavior: "auto" }),
  );
  const laneIds = useMemo(
    () => new Set(lanes.flatMap((lane) => (lane.id === null ? [] : [lane.id]))),
    [lanes],
  );
  const laneName = (key: string | number | undefined) => {
    const lane = key === undefined ? undefined : lanes.find((l) => laneKey(l.id) === String(key));
    return lane ? (lane.tag?.name ?? t("kanban.openLane")) : "";
  };
  const ticketOf = (data: unknown) => (data as { ticket?: TicketDTO } | undefined)?.ticket;
  const nameOf = (data: unknown) => {
    const ticket = ticketOf(data);
    return ticket ? ticket.contact.name || ticket.contact.number : "";
  };

  const announcements: Announcements = {
    onDragStart: ({ active }) => {
      const ticket = ticketOf(active.data.current);
      announcedLane.current = ticket ? laneKey(kanbanLaneOf(ticket, laneIds)) : null;
      return t("kanban.announce.start", {
        name: nameOf(active.data.current),
        lane: laneName(announcedLane.current ?? undefined),
      });
    },
    onDragOver: ({ over }) => {
      const lane = over ? String(over.id) : null;
      if (lane === announcedLane.current) return undefined;
      announcedLane.current = lane;
      return lane ? t("kanban.announce.over", { lane: laneName(lane) }) : t("kanban.announce.outside");
    },
    onDragEnd: ({ active, over }) =>
      over
        ? t("kanban.announce.drop", { name: nameOf(active.data.current), lane: laneName(over.id) })
        : t("kanban.announce.cancel"),
    onDragCancel: () => t("kanban.announce.cancel"),
  };

  function dragStart(event: DragStartEvent) {
    aimed.current = null;
    setLifted(ticketOf(event.active.data.current) ?? null);
  }

  function dragEnd(event: DragEndEvent) {
    setLifted(null);
    const ticket = ticketOf(event.active.data.current);
    if (ticket && event.over) onMove(ticket, laneFromKey(String(event.over.id)));
  }

  return (
    <DndContext
      sensors={sensors}
      collisionDetection={collisions}
      onDragStart={dragStart}
      onDragEnd={dragEnd}
      onDragCancel={() => setLifted(null)}
      accessibility={{ announcements, screenReaderInstructions: { draggable: t("kanban.dragHint") } }}
    >
      <Box
        sx={{
          flex: 1,
          minHeight: 0,
          display: "flex",
          gap: 2,
          overflowX: "auto",
          alignItems: "stretch",
          pb: 1,
        }}
      >
        {lanes.map((lane) => (
          <KanbanLane key={laneKey(lane.id)} lane={lane} laneIds={laneIds} />
        ))}
      </Box>
      <DragOverlay dropAnimation={null}>
        {lifted ? <CardView ticket={lifted} laneIds={laneIds} lifted width={LANE_WIDTH - 16} /> : null}
      </DragOverlay>
    </DndContext>
  );
}

import { kanbanLaneOf, type TagDTO, type TicketDTO } from "@atende/contracts";

/** Lane ids on the board: null is 'Em aberto', a number is a kanban tag. */
export type LaneId = number | null;
export const OPEN_LANE = "lane-open";
export const laneKey = (lane: LaneId) => (lane === null ? OPEN_LANE : `lane-${lane}`);
export const laneFromKey = (key: string): LaneId => (key === OPEN_LANE ? null : Number(key.slice(5)));

export interface Lane {
  id: LaneId;
  tag: TagDTO | null;
  tickets: TicketDTO[];
}

const newestFirst = (x: TicketDTO, y: TicketDTO) => y.updatedAt.localeCompare(x.updatedAt) || y.id - x.id;

/** 'Em aberto' (tickets in no kanban lane) first, then one lane per kanban tag. */
export function buildLanes(tickets: TicketDTO[], tags: TagDTO[]): Lane[] {
  const laneIds = new Set(tags.map((tag) => tag.id));
  const lanes: Lane[] = [
    { id: null, tag: null, tickets: [] },
    ...tags.map((tag) => ({ id: tag.id, tag, tickets: [] })),
  ];
  const byId = new Map(lanes.map((lane) => [lane.id, lane]));
  for (const ticket of tickets) byId.get(kanbanLaneOf(ticket, laneIds))?.tickets.push(ticket);
  for (const lane of lanes) lane.tickets.sort(newestFirst);
  return lanes;
}

/** The card as it will be once moved: out of every lane, into `lane` (optimistic, until the server answers). */
export function movedTicket(ticket: TicketDTO, lane: TagDTO | null, laneIds: ReadonlySet<number>): TicketDTO {
  const kept = ticket.tags.filter((t) => !laneIds.has(t.id));
  return { ...ticket, tags: lane ? [...kept, { id: lane.id, name: lane.name, color: lane.color }] : kept };
}

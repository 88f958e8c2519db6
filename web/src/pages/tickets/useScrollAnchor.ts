import type { TicketDTO } from "@atende/contracts";
import type { Virtualizer } from "@tanstack/react-virtual";
import { useLayoutEffect, useRef } from "react";

/**
 * Scroll anchoring for the windowed ticket list, which the browser does for rows in the flow but
 * not for placed ones: when tickets arrive or leave above the view, the view moves with the rows it
 * showed, so the row under the pointer stays there. The shift most of those rows share is the one
 * followed (a ticket that itself jumped to the top is not). At the very top nothing is held, so new
 * tickets come into view.
 *
 * Where the rows were is worked out from the previous list and the heights measured so far (kept
 * by ticket), not read from the page, so a new page of tickets costs no extra layout.
 */
export function useScrollAnchor(
  virtualizer: Virtualizer<HTMLDivElement, Element>,
  tickets: TicketDTO[],
  indexById: ReadonlyMap<number, number>,
  estimate: (ticket: TicketDTO) => number,
): void {
  const previous = useRef<TicketDTO[]>(tickets);

  useLayoutEffect(() => {
    const before = previous.current;
    previous.current = tickets;
    const offset = virtualizer.scrollOffset ?? 0;
    const height = virtualizer.scrollRect?.height ?? 0;
    if (offset <= 0 || before === tickets) return;

    const sizeOf = (ticket: TicketDTO) => virtualizer.itemSizeCache.get(ticket.id) ?? estimate(ticket);
    let start = 0;
    let index = 0;
    while (index < before.length && start + sizeOf(before[index]!) <= offset) {
      start += sizeOf(before[index]!);
      index += 1;
    }
    const votes = new Map<number, { count: number; at: number; offset: number }>();
    for (; index < before.length && start < offset + height; index += 1) {
      const now = indexById.get(before[index]!.id);
      if (now !== undefined) {
        const vote = votes.get(now - index) ?? { count: 0, at: now, offset: offset - start };
        vote.count += 1;
        votes.set(now - index, vote);
      }
      start += sizeOf(before[index]!);
    }
    let best: [number, { count: number; at: number; offset: number }] | undefined;
    for (const entry of votes) if (!best || entry[1].count > best[1].count) best = entry;
    if (!best || best[0] === 0) return;
    const row = virtualizer.measurementsCache[best[1].at];
    if (row) virtualizer.scrollToOffset(row.start + best[1].offset);
    // Only a new list of tickets moves rows; the virtualizer and the estimate change with it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [tickets]);
}

import type { Virtualizer, VirtualItem } from "@tanstack/react-virtual";
import type { ChatRow } from "./conversation";

/** Characters of 14 px text on one line of a bubble, about. */
const CHARS_PER_LINE = 52;
const LINE_PX = 19;

const MEDIA_PX: Record<string, number> = {
  image: 200,
  sticker: 144,
  video: 162,
  audio: 48,
  application: 64,
  locationMessage: 150,
  vcard: 96,
  contactMessage: 96,
  call_log: 24,
  unreadable: 24,
};

/**
 * A row's height before it is drawn: close enough that the scroll bar does not lurch as rows are
 * measured. The real height replaces it once the row has been on screen.
 */
export function estimateRowHeight(row: ChatRow): number {
  const { message } = row;
  let height = row.firstOfGroup ? 10 : 2;
  if (row.day) height += 46;
  if (row.ticketChange) height += 96;
  if (message.isDeleted) return height + 36;
  height += 14 + (MEDIA_PX[message.mediaType] ?? 0);
  if (message.quotedMsg) height += 58;
  if (message.isForwarded) height += 18;
  if (message.reactions.length > 0) height += 16;
  if (message.sendError) height += 24;
  const lines = message.body
    .split("\n")
    .reduce((sum, line) => sum + Math.max(1, Math.ceil(line.length / CHARS_PER_LINE)), 0);
  return height + (message.body ? lines * LINE_PX : 16);
}

/**
 * Whether a row whose height changed should move the scroll position by the difference, so what
 * the reader sees stays where it is: any row that starts above the screen, wholly above it or cut
 * by its top edge (a row measured for the first time, a picture that finished loading), grows or
 * shrinks upwards, and the row that was first before an older page arrived (`reshaped`): what
 * changed is above its bubble (the day divider moved up to the older page, a conversation divider
 * appeared), so its bubble must not move. The same rule for growing and shrinking: a row cut by the
 * top edge whose picture shrank and then grew again used to be followed only on the way back, and
 * the screen jumped by the difference.
 */
export function keepsReadingPosition(
  item: VirtualItem,
  instance: Virtualizer<HTMLDivElement, Element>,
  reshaped: boolean,
): boolean {
  if (reshaped && instance.itemSizeCache.has(item.key)) return true;
  return item.start < (instance.scrollOffset ?? 0);
}

import type { QueueDetailDTO, QueueOptionDTO } from "@atende/contracts";
import type { queueOptions, queues } from "../../db/schema/index.js";

export type QueueRow = typeof queues.$inferSelect;
export type QueueOptionRow = typeof queueOptions.$inferSelect;

/** The one shape of a queue, for HTTP answers and the `company-{id}-queue` event alike. */
export function presentQueue(row: QueueRow): QueueDetailDTO {
  return {
    id: row.id,
    name: row.name,
    color: row.color,
    orderQueue: row.orderQueue,
    greetingMessage: row.greetingMessage,
    outOfHoursMessage: row.outOfHoursMessage,
    integrationId: row.integrationId,
    promptId: row.promptId,
    schedules: row.schedules,
    mediaPath: row.mediaPath,
    mediaName: row.mediaName,
    slaFirstResponseMinutes: row.slaFirstResponseMinutes,
    slaResolutionMinutes: row.slaResolutionMinutes,
    slaWarningPercent: row.slaWarningPercent,
    slaPauseOnCustomer: row.slaPauseOnCustomer,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/**
 * A queue's options as trees: every option with its whole sub-menu under `children`, siblings in
 * option order. Answers the tree of each row of `rows` by id.
 */
export function presentOptionTrees(rows: QueueOptionRow[]): Map<number, QueueOptionDTO> {
  const sorted = [...rows].sort((a, b) => a.option - b.option || a.id - b.id);
  const byId = new Map<number, QueueOptionDTO>();
  for (const row of sorted) {
    byId.set(row.id, {
      id: row.id,
      queueId: row.queueId,
      parentId: row.parentId,
      title: row.title,
      message: row.message,
      option: row.option,
      mediaPath: row.mediaPath,
      mediaName: row.mediaName,
      children: [],
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
    });
  }
  for (const row of sorted) {
    if (row.parentId !== null) byId.get(row.parentId)?.children.push(byId.get(row.id)!);
  }
  return byId;
}

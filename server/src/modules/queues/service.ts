import {
  SLA_LIMITS,
  DEFAULT_SCHEDULES,
  QUEUE_LIMITS,
  type QueueDetailDTO,
  type QueueOptionCreateInput,
  type QueueOptionDTO,
  type QueueOptionUpdateInput,
  type QueueOptionsQuery,
  type QueueSaveInput,
  mediaNameOf,
} from "@atende/contracts";
import type { Deps } from "../../deps.js";
import { inTransaction } from "../../events/bus.js";
import type { AuthContext } from "../../http/auth.js";
import { AppError } from "../../http/errors.js";
import { isUniqueViolationOf } from "../../db/errors.js";
import { requireOwnBotLinks } from "../bots/links.js";
import { requirePlanForLinks } from "../../http/plan.js";
import { requirePlanRoom } from "../plans/limits.js";
import { queuePolicy } from "./policy.js";
import { presentOptionTrees, presentQueue } from "./present.js";
import * as q from "./queries.js";
import type { UploadedFile } from "../../http/upload.js";

export type QueuesDeps = Pick<Deps, "db" | "bus" | "now" | "media">;

/** A file sent to a media-upload route. */
/** Reads the upload only once the caller may make it: nobody's bytes are read for a 403 or a 404. */
export type ReadUpload = () => Promise<UploadedFile>;

/** Two requests may race for one name or colour; the unique indexes decide, and the loser hears which. */
async function uniqueNameAndColor<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (isUniqueViolationOf(err, ["queues_company_color_uq"]))
      throw new AppError("ERR_QUEUE_COLOR_ALREADY_EXISTS");
    if (isUniqueViolationOf(err, ["queues_company_name_uq"]))
      throw new AppError("ERR_QUEUE_NAME_ALREADY_EXISTS");
    throw err;
  }
}

export function createQueuesService({ db, bus, now, media }: QueuesDeps) {
  async function queueOf(companyId: number, id: number) {
    const row = await q.findQueueRow(db, companyId, id);
    if (!row) throw new AppError("ERR_NO_QUEUE_FOUND");
    return row;
  }

  async function optionOf(companyId: number, id: number) {
    const row = await q.findOptionRow(db, companyId, id);
    if (!row) throw new AppError("ERR_NO_QUEUE_OPTION_FOUND");
    return row;
  }

  async function optionTree(companyId: number, queueId: number, id: number): Promise<QueueOptionDTO> {
    const trees = presentOptionTrees(await q.optionRowsOfQueue(db, companyId, queueId));
    const found = trees.get(id);
    if (!found) throw new AppError("ERR_NO_QUEUE_OPTION_FOUND");
    return found;
  }

  /** Checks the colour before the write, so a taken colour is named even when the name is taken too. */
  async function colorFree(companyId: number, color: string, exceptId?: number) {
    const taken = await q.findQueueIdByColor(db, companyId, color);
    if (taken && taken.id !== exceptId) throw new AppError("ERR_QUEUE_COLOR_ALREADY_EXISTS");
  }

  async function setQueueMedia(
    actor: AuthContext,
    id: number,
    value: { mediaPath: string | null; mediaName: string | null },
  ): Promise<QueueDetailDTO> {
    return inTransaction(db, bus, async (tx, raise) => {
      const row = await q.updateQueue(tx, actor.companyId, id, { ...value, updatedAt: now() });
      if (!row) throw new AppError("ERR_NO_QUEUE_FOUND");
      const queue = presentQueue(row);
      raise({ type: "queue.saved", action: "update", companyId: actor.companyId, queue });
      return queue;
    });
  }

  async function setOptionMedia(
    actor: AuthContext,
    id: number,
    value: { mediaPath: string | null; mediaName: string | null },
  ): Promise<QueueOptionDTO> {
    const row = await q.updateOption(db, actor.companyId, id, { ...value, updatedAt: now() });
    if (!row) throw new AppError("ERR_NO_QUEUE_OPTION_FOUND");
    return optionTree(actor.companyId, row.queueId, id);
  }

  return {
    async list(actor: AuthContext): Promise<QueueDetailDTO[]> {
      return (await q.listQueueRows(db, actor.companyId)).map(presentQueue);
    },

    async get(actor: AuthContext, id: number): Promise<QueueDetailDTO> {
      return presentQueue(await queueOf(actor.companyId, id));
    },

    async create(actor: AuthContext, input: QueueSaveInput): Promise<QueueDetailDTO> {
      queuePolicy.manage(actor);
      await colorFree(actor.companyId, input.color);
      await requirePlanForLinks(db, actor.companyId, input);
      await requireOwnBotLinks(db, actor.companyId, input);
      return uniqueNameAndColor(() =>
        inTransaction(db, bus, async (tx, raise) => {
          await requirePlanRoom(tx, actor.companyId, "queues", () => q.countQueues(tx, actor.companyId));
          const row = await q.insertQueue(tx, actor.companyId, {
            name: input.name,
            color: input.color,
            greetingMessage: input.greetingMessage ?? "",
            outOfHoursMessage: input.outOfHoursMessage ?? "",
            orderQueue: input.orderQueue ?? null,
            integrationId: input.integrationId ?? null,
            promptId: input.promptId ?? null,
            schedules: input.schedules ?? [...DEFAULT_SCHEDULES],
            slaFirstResponseMinutes: input.slaFirstResponseMinutes ?? null,
            slaResolutionMinutes: input.slaResolutionMinutes ?? null,
            slaWarningPercent: input.slaWarningPercent ?? SLA_LIMITS.warningPercent.default,
            slaPauseOnCustomer: input.slaPauseOnCustomer ?? false,
            createdAt: now(),
            updatedAt: now(),
          });
          const queue = presentQueue(row);
          raise({ type: "queue.saved", action: "create", companyId: actor.companyId, queue });
          return queue;
        }),
      );
    },

    async update(actor: AuthContext, id: number, input: QueueSaveInput): Promise<QueueDetailDTO> {
      const current = await queueOf(actor.companyId, id);
      queuePolicy.manage(actor);
      await colorFree(actor.companyId, input.color, id);
      await requirePlanForLinks(db, actor.companyId, input, current);
      await requireOwnBotLinks(db, actor.companyId, input);
      return uniqueNameAndColor(() =>
        inTransaction(db, bus, async (tx, raise) => {
          const row = await q.updateQueue(tx, actor.companyId, id, {
            name: input.name,
            color: input.color,
            greetingMessage: input.greetingMessage,
            outOfHoursMessage: input.outOfHoursMessage,
            orderQueue: input.orderQueue,
            integrationId: input.integrationId,
            promptId: input.promptId,
            schedules: input.schedules,
            // Service levels: a field left out keeps its value (tickets already in the queue keep
            // the due times they got; the new targets count for tickets entering it from now on).
            slaFirstResponseMinutes: input.slaFirstResponseMinutes,
            slaResolutionMinutes: input.slaResolutionMinutes,
            slaWarningPercent: input.slaWarningPercent,
            slaPauseOnCustomer: input.slaPauseOnCustomer,
            updatedAt: now(),
          });
          if (!row) throw new AppError("ERR_NO_QUEUE_FOUND"); // deleted meanwhile
          const queue = presentQueue(row);
          raise({ type: "queue.saved", action: "update", companyId: actor.companyId, queue });
          return queue;
        }),
      );
    },

    /** Deletes the queue and its menu; its tickets stay, without a queue. */
    async remove(actor: AuthContext, id: number): Promise<void> {
      await queueOf(actor.companyId, id);
      queuePolicy.manage(actor);
      await inTransaction(db, bus, async (tx, raise) => {
        const gone = await q.deleteQueue(tx, actor.companyId, id);
        if (gone) raise({ type: "queue.deleted", companyId: actor.companyId, queueId: id });
      });
    },

    async attachMedia(actor: AuthContext, id: number, read: ReadUpload): Promise<QueueDetailDTO> {
      await queueOf(actor.companyId, id);
      queuePolicy.manage(actor);
      const file = await read();
      const stored = await media.save(actor.companyId, file.data, file.mimetype);
      return setQueueMedia(actor, id, { mediaPath: stored.path, mediaName: mediaNameOf(file.filename) });
    },

    async removeMedia(actor: AuthContext, id: number): Promise<QueueDetailDTO> {
      await queueOf(actor.companyId, id);
      queuePolicy.manage(actor);
      return setQueueMedia(actor, id, { mediaPath: null, mediaName: null });
    },

    /**
     * GET /queue-options: with parentId null the queue's first menu, with a parentId that option's
     * sub-menu, without one every option of the queue; each with its whole sub-menu in `children`.
     */
    async listOptions(actor: AuthContext, query: QueueOptionsQuery): Promise<QueueOptionDTO[]> {
      await queueOf(actor.companyId, query.queueId);
      const rows = await q.optionRowsOfQueue(db, actor.companyId, query.queueId);
      const trees = presentOptionTrees(rows);
      if (typeof query.parentId === "number" && !trees.has(query.parentId))
        throw new AppError("ERR_NO_QUEUE_OPTION_FOUND");
      const all = [...trees.values()];
      return query.parentId === undefined ? all : all.filter((o) => o.parentId === query.parentId);
    },

    async getOption(actor: AuthContext, id: number): Promise<QueueOptionDTO> {
      const row = await optionOf(actor.companyId, id);
      return optionTree(actor.companyId, row.queueId, id);
    },

    async createOption(actor: AuthContext, input: QueueOptionCreateInput): Promise<QueueOptionDTO> {
      await queueOf(actor.companyId, input.queueId);
      queuePolicy.manage(actor);
      const parentId = input.parentId ?? null;
      const id = await inTransaction(db, bus, async (tx) => {
        // One writer of a queue's menu at a time: numbers and limits hold under concurrency.
        await q.lockQueue(tx, actor.companyId, input.queueId);
        const rows = await q.optionRowsOfQueue(tx, actor.companyId, input.queueId);
        if (parentId !== null && !rows.some((r) => r.id === parentId))
          throw new AppError("ERR_NO_QUEUE_OPTION_FOUND");
        if (rows.length >= QUEUE_LIMITS.optionsPerQueue) throw new AppError("ERR_QUEUE_OPTIONS_LIMIT");
        if (parentId !== null && q.depthOf(rows, parentId) + 1 > QUEUE_LIMITS.optionDepth)
          throw new AppError("ERR_QUEUE_OPTIONS_LIMIT");
        if (input.option !== undefined && q.numberTaken(rows, parentId, input.option))
          throw new AppError("ERR_QUEUE_OPTION_NUMBER_TAKEN");
        const option =
          input.option ?? (await q.nextOptionNumber(tx, actor.companyId, input.queueId, parentId));
        return q.insertOption(tx, actor.companyId, {
          queueId: input.queueId,
          parentId,
          title: input.title,
          message: input.message,
          option,
          createdAt: now(),
          updatedAt: now(),
        });
      });
      return optionTree(actor.companyId, input.queueId, id);
    },

    async updateOption(
      actor: AuthContext,
      id: number,
      input: QueueOptionUpdateInput,
    ): Promise<QueueOptionDTO> {
      const current = await optionOf(actor.companyId, id);
      queuePolicy.manage(actor);
      await inTransaction(db, bus, async (tx) => {
        await q.lockQueue(tx, actor.companyId, current.queueId);
        const rows = await q.optionRowsOfQueue(tx, actor.companyId, current.queueId);
        const fresh = rows.find((r) => r.id === id);
        if (!fresh) throw new AppError("ERR_NO_QUEUE_OPTION_FOUND"); // deleted meanwhile
        if (input.option !== undefined && q.numberTaken(rows, fresh.parentId, input.option, id))
          throw new AppError("ERR_QUEUE_OPTION_NUMBER_TAKEN");
        await q.updateOption(tx, actor.companyId, id, {
          title: input.title,
          message: input.message,
          option: input.option,
          updatedAt: now(),
        });
      });
      return optionTree(actor.companyId, current.queueId, id);
    },

    /** Deletes the option and, with it, its whole sub-menu. */
    async removeOption(actor: AuthContext, id: number): Promise<void> {
      await optionOf(actor.companyId, id);
      queuePolicy.manage(actor);
      await q.deleteOption(db, actor.companyId, id);
    },

    async attachOptionMedia(actor: AuthContext, id: number, read: ReadUpload): Promise<QueueOptionDTO> {
      await optionOf(actor.companyId, id);
      queuePolicy.manage(actor);
      const file = await read();
      const stored = await media.save(actor.companyId, file.data, file.mimetype);
      return setOptionMedia(actor, id, { mediaPath: stored.path, mediaName: mediaNameOf(file.filename) });
    },

    async removeOptionMedia(actor: AuthContext, id: number): Promise<QueueOptionDTO> {
      await optionOf(actor.companyId, id);
      queuePolicy.manage(actor);
      return setOptionMedia(actor, id, { mediaPath: null, mediaName: null });
    },
  };
}

export type QueuesService = ReturnType<typeof createQueuesService>;

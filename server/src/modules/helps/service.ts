import {
  type HelpCreateInput,
  type HelpDTO,
  type HelpUpdateInput,
  type HelpsPage,
  LIMITS,
  type ListQuery,
} from "@atende/contracts";
import type { Deps } from "../../deps.js";
import type { AuthContext } from "../../http/auth.js";
import { AppError } from "../../http/errors.js";
import { helpPolicy } from "./policy.js";
import { presentHelp } from "./present.js";
import * as q from "./queries.js";

export type HelpsDeps = Pick<Deps, "db" | "now">;

/**
 * Help videos: the platform's own list, one for every company. Each write is one statement, so it
 * needs no transaction of its own; nothing listens to them (the pages read the list when opened).
 */
export function createHelpsService({ db, now }: HelpsDeps) {
  return {
    /** GET /helps: the Ajuda tab's table, searched and paged. */
    page(_actor: AuthContext, query: ListQuery): Promise<HelpsPage> {
      return q.pageHelps(db, { ...query, pageSize: LIMITS.pageSize });
    },

    /** GET /helps/list: every help video (the /helps page). */
    async list(_actor: AuthContext): Promise<HelpDTO[]> {
      return (await q.listHelps(db)).map(presentHelp);
    },

    async create(actor: AuthContext, input: HelpCreateInput): Promise<HelpDTO> {
      helpPolicy.write(actor);
      const at = now();
      return presentHelp(await q.insertHelp(db, { ...input, createdAt: at, updatedAt: at }));
    },

    async update(actor: AuthContext, id: number, input: HelpUpdateInput): Promise<HelpDTO> {
      helpPolicy.write(actor);
      const row = await q.updateHelp(db, id, { ...input, updatedAt: now() });
      if (!row) throw new AppError("ERR_NO_HELP_FOUND");
      return presentHelp(row);
    },

    async remove(actor: AuthContext, id: number): Promise<void> {
      helpPolicy.write(actor);
      if (!(await q.deleteHelp(db, id))) throw new AppError("ERR_NO_HELP_FOUND");
    },
  };
}

export type HelpsService = ReturnType<typeof createHelpsService>;

import {
  type CampaignSettingRow,
  type CampaignSettingsInput,
  type CampaignSettingsValues,
  readCampaignSettings,
} from "@atende/contracts";
import type { Db, Executor } from "../../db/client.js";
import type { AuthContext } from "../../http/auth.js";
import * as q from "./queries.js";

/**
 * /campaigns-config: the settings are stored as this API family stores them, one row per key with
 * its value as JSON (GET answers those rows; POST {settings} saves the keys it names). The sender
 * reads them through `loadCampaignSettings`, defaults filling what is missing or unreadable.
 */

export async function loadCampaignSettings(db: Executor, companyId: number): Promise<CampaignSettingsValues> {
  return readCampaignSettings(await q.settingRows(db, companyId));
}

export function createCampaignSettingsService({ db, now }: { db: Db; now: () => Date }) {
  return {
    async list(actor: AuthContext): Promise<CampaignSettingRow[]> {
      return (await q.settingRows(db, actor.companyId)) as CampaignSettingRow[];
    },

    async save(actor: AuthContext, input: CampaignSettingsInput): Promise<CampaignSettingRow[]> {
      await db.transaction(async (tx) => {
        for (const [key, value] of Object.entries(input)) {
          if (value === undefined) continue;
          let stored: unknown = value;
          if (key === "variables") {
            // A variable is added only if its key is new: the first of a repeated key is kept.
            const seen = new Set<string>();
            stored = (value as { key: string; value: string }[]).filter(
              (v) => !seen.has(v.key) && seen.add(v.key),
            );
          }
          if (key === "optOutWords")
            stored = [...new Set((value as string[]).map((w) => w.trim().toLocaleUpperCase("pt-BR")))];
          await q.saveSettingRow(tx, actor.companyId, key, JSON.stringify(stored), now());
        }
      });
      return this.list(actor);
    },
  };
}

export type CampaignSettingsService = ReturnType<typeof createCampaignSettingsService>;

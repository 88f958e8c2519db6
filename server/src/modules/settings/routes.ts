import type { FastifyInstance } from "fastify";
import type { Db } from "../../db/client.js";
import { settingKeyParam, settingUpdateSchema } from "@atende/contracts";
import { authOf } from "../../http/auth.js";
import { parseInput } from "../../http/errors.js";
import { platformSetting } from "./queries.js";
import type { SettingsService } from "./service.js";

/** Platform settings a visitor may read before logging in, with their defaults. */
export const PUBLIC_SETTINGS = { viewregister: "disabled", allowregister: "disabled", trial: "3" } as const;

export function publicSettingsRoutes(app: FastifyInstance, db: Db) {
  for (const key of Object.keys(PUBLIC_SETTINGS) as (keyof typeof PUBLIC_SETTINGS)[]) {
    app.get(`/settings/${key}`, async () => ({
      key,
      value: (await platformSetting(db, key)) ?? PUBLIC_SETTINGS[key],
    }));
  }
}

export function settingsRoutes(app: FastifyInstance, settings: SettingsService) {
  app.get("/settings", async (req) => settings.list(authOf(req)));
  app.put("/settings/:key", async (req) => {
    const actor = authOf(req);
    const key = settings.keyFor(actor, parseInput(settingKeyParam, req.params, req).key);
    return settings.update(actor, key, parseInput(settingUpdateSchema(key), req.body, req).value);
  });
}

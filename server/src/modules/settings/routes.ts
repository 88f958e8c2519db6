import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { settingKeyParam, settingSchema, settingUpdateSchema } from "@atende/contracts";
import { parseInput } from "../../http/errors.js";
import { routes } from "../../http/route.js";
import { platformSetting } from "./queries.js";
import { type SettingsDeps, type SettingsService, createSettingsService } from "./service.js";

/** PUT /settings/{key}'s body, for the API document (the value's allowed set depends on the key). */
const settingValueDoc = z.object({ key: z.string().optional(), value: z.string() });

/** Platform settings a visitor may read before logging in, with their defaults. */
export const PUBLIC_SETTINGS = { viewregister: "disabled", allowregister: "disabled", trial: "3" } as const;

/** The settings module: the public platform settings, and the company's (admins) and the platform's (super). */
export async function settingsModule(app: FastifyInstance, deps: SettingsDeps): Promise<SettingsService> {
  const settings = createSettingsService(deps);
  const r = routes(app);
  for (const key of Object.keys(PUBLIC_SETTINGS) as (keyof typeof PUBLIC_SETTINGS)[]) {
    r.get(`/settings/${key}`, { access: "public", response: settingValueDoc.required() }, async () => ({
      key,
      value: (await platformSetting(deps.db, key)) ?? PUBLIC_SETTINGS[key],
    }));
  }
  r.get("/settings", { access: "user", response: z.array(settingSchema) }, ({ auth }) => settings.list(auth));
  // A company key for settings:edit, a platform key for the super user too; its body's schema depends on the key.
  r.put(
    "/settings/:key",
    {
      errors: ["ERR_NO_SETTING_FOUND"],
      access: "settings:edit",
      params: settingKeyParam,
      bodyDoc: settingValueDoc,
      response: settingSchema,
    },
    ({ auth, params }, req) => {
      const key = settings.keyFor(auth, params.key);
      return settings.update(auth, key, parseInput(settingUpdateSchema(key), req.body, req).value);
    },
  );
  // Removes a stored secret (SECRET_SETTING_KEYS), with the same rights as its PUT; a blank PUT keeps it.
  r.delete(
    "/settings/:key",
    {
      errors: ["ERR_NO_SETTING_FOUND", "ERR_SETTING_NOT_CLEARABLE"],
      access: "settings:edit",
      params: settingKeyParam,
      status: 204,
    },
    async ({ auth, params }) => {
      await settings.clear(auth, settings.keyFor(auth, params.key));
    },
  );
  return settings;
}

import {
  COMPANY_SETTING_KEYS,
  DEFAULT_COMPANY_SETTINGS,
  type SettingDTO,
  type SettingKey,
  isCompanySettingKey,
  isSecretSettingKey,
  isSuperSettingKey,
} from "@atende/contracts";
import type { Deps } from "../../deps.js";
import { type AuthContext, authorize, requireSuper } from "../../http/auth.js";
import { AppError } from "../../http/errors.js";
import type { SecretBox } from "../../lib/secretBox.js";
import { presentSetting } from "./present.js";
import { companySetting, deleteSetting, saveSetting, storedSettings } from "./queries.js";
import { openSetting, presentStoredSettings, sealSetting } from "./sealing.js";

export type SettingsDeps = Pick<Deps, "db" | "now"> & { secrets: SecretBox };

export function createSettingsService({ db, now, secrets }: SettingsDeps) {
  return {
    /**
     * GET /settings: the company's settings, each Options-tab key present (its default when never
     * saved). Platform settings and integration credentials only reach the super user.
     */
    async list(actor: AuthContext): Promise<SettingDTO[]> {
      const stored = await storedSettings(db, actor.companyId);
      const shown = stored.filter((s) => actor.super || !isSuperSettingKey(s.key));
      const missing = COMPANY_SETTING_KEYS.filter((key) => !shown.some((s) => s.key === key)).map((key) => ({
        key,
        value: DEFAULT_COMPANY_SETTINGS[key] ?? "",
      }));
      return presentStoredSettings(secrets, [...shown, ...missing]).sort((a, b) =>
        a.key.localeCompare(b.key),
      );
    },

    /** Which key a PUT may change: a company key for admins, a platform key for the super user. */
    keyFor(actor: AuthContext, key: string): SettingKey {
      authorize(actor, "settings:edit");
      if (isCompanySettingKey(key)) return key;
      if (isSuperSettingKey(key)) {
        requireSuper(actor);
        return key;
      }
      throw new AppError("ERR_NO_SETTING_FOUND");
    },

    /**
     * PUT /settings/{key}: the value was checked against the key's rule; saved at once. A secret
     * left blank keeps the stored one (the list answers secrets blank: a client sending that back
     * removes nothing); only `clear` removes it. A secret is stored sealed (sealing.ts).
     */
    async update(actor: AuthContext, key: SettingKey, value: string): Promise<SettingDTO> {
      if (isSecretSettingKey(key) && value === "") {
        const stored = (await companySetting(db, actor.companyId, key)) ?? "";
        return presentSetting({ key, value: openSetting(secrets, key, stored) });
      }
      await saveSetting(db, actor.companyId, key, sealSetting(secrets, key, value), now());
      return presentSetting({ key, value });
    },

    /** DELETE /settings/{key}: removes a stored secret; any other setting is changed by a PUT, never removed. */
    async clear(actor: AuthContext, key: SettingKey): Promise<void> {
      if (!isSecretSettingKey(key)) throw new AppError("ERR_SETTING_NOT_CLEARABLE");
      await deleteSetting(db, actor.companyId, key);
    },
  };
}

export type SettingsService = ReturnType<typeof createSettingsService>;

import {
  DEFAULT_COMPANY_SETTINGS,
  DEFAULT_TIMEZONE,
  type SettingDTO,
  isSecretSettingKey,
  secretHint,
} from "@atende/contracts";

/**
 * A setting as answered: a secret (SECRET_SETTING_KEYS: API keys, tokens, client secrets) only as a
 * hint, never in clear. Every answer carrying settings goes through here: GET and PUT /settings, the
 * login answer's company, the company payloads.
 */
export function presentSetting(setting: SettingDTO): SettingDTO {
  return isSecretSettingKey(setting.key)
    ? { key: setting.key, value: "", hint: secretHint(setting.value) ?? "" }
    : { key: setting.key, value: setting.value };
}

/** The saved settings with the default of each one never saved; a blank time zone is the default one. */
export function settingsWithDefaults(saved: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = { ...DEFAULT_COMPANY_SETTINGS, ...saved };
  if (!out.timezone) out.timezone = DEFAULT_TIMEZONE;
  return out;
}

/** Whether a switch-like setting ("enabled" / "disabled") is on. */
export const enabled = (settings: Record<string, string>, key: string) => settings[key] === "enabled";

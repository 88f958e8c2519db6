import { SECRET_SETTING_KEYS, type SettingDTO, isSecretSettingKey } from "@atende/contracts";
import type { Executor } from "../../db/client.js";
import { type SecretBox, isSealed } from "../../lib/secretBox.js";
import { presentSetting } from "./present.js";
import { clearSettingsOf, replaceSettingValue } from "./queries.js";

/**
 * Secret settings (contracts' SECRET_SETTING_KEYS: the Asaas key and webhook token, the IXC token,
 * the MK-AUTH client secret) are stored sealed, each key its own purpose; every other setting is
 * stored as it is.
 */
export const settingSecretPurpose = (key: string) => `setting.${key}`;

/** The value to store for a key: a secret sealed, anything else (and a blank) as it is. */
export function sealSetting(box: SecretBox, key: string, value: string): string {
  return isSecretSettingKey(key) && value !== "" ? box.seal(settingSecretPurpose(key), value) : value;
}

/**
 * A stored value in clear. A secret sealed with another SECRETS_KEY reads as none (""); one stored
 * before sealing, which the start-up step has not reached yet (secretsAtRest.ts), as it is.
 */
export function openSetting(box: SecretBox, key: string, stored: string): string {
  if (!isSecretSettingKey(key) || !isSealed(stored)) return stored;
  return box.open(settingSecretPurpose(key), stored) ?? "";
}

/** Stored settings as answers carry them: secrets opened only to give their hint. */
export function presentStoredSettings(
  box: SecretBox,
  rows: readonly { key: string; value: string }[],
): SettingDTO[] {
  return rows.map((r) => presentSetting({ key: r.key, value: openSetting(box, r.key, r.value) }));
}

/** The start-up step's part: seals every secret setting still in clear. Answers how many. */
export async function sealClearSecretSettings(db: Executor, box: SecretBox): Promise<number> {
  const rows = await clearSettingsOf(db, SECRET_SETTING_KEYS);
  for (const row of rows)
    await replaceSettingValue(db, row.companyId, row.key, row.value, sealSetting(box, row.key, row.value));
  return rows.length;
}

import { DEFAULT_COMPANY_SETTINGS, DEFAULT_TIMEZONE } from "@atende/contracts";

/** The company's saved settings with the spec's defaults for the keys never saved. */
export function withDefaults(saved: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = { ...DEFAULT_COMPANY_SETTINGS, ...saved };
  if (!out.timezone) out.timezone = DEFAULT_TIMEZONE;
  return out;
}

export const enabled = (s: Record<string, string>, key: string) => s[key] === "enabled";

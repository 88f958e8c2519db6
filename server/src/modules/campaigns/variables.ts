import {
  CAMPAIGN_VARIANT_INDEXES,
  type CampaignSettingsValues,
  type CampaignVariable,
  fillCampaignVariables,
  zoneOffsetMs,
} from "@atende/contracts";

/**
 * The sender's pure decisions, each taking its randomness and its clock as arguments so a test
 * can pin them: which variant a recipient gets, the text it reads, the wait before the next send,
 * and when the sending window and the daily cap let the next one go.
 */

export type Random = () => number;

type Variants = Record<`message${1 | 2 | 3 | 4 | 5}` | `confirmationMessage${1 | 2 | 3 | 4 | 5}`, string>;

/** The indexes (1..5) of the non-empty variants of `kind`. */
export function filledVariants(c: Variants, kind: "message" | "confirmationMessage"): number[] {
  return CAMPAIGN_VARIANT_INDEXES.filter((i) => c[`${kind}${i}`].trim() !== "");
}

/** One of the non-empty variants, uniformly at random; null when all are empty. */
export function pickVariant(c: Variants, kind: "message" | "confirmationMessage", random: Random) {
  const filled = filledVariants(c, kind);
  if (filled.length === 0) return null;
  const index = filled[Math.min(filled.length - 1, Math.floor(random() * filled.length))]!;
  return { index, text: c[`${kind}${index}` as keyof Variants] };
}

export function renderFor(
  text: string,
  recipient: { name: string; number: string; email: string },
  variables: CampaignVariable[],
): string {
  return fillCampaignVariables(text, recipient, variables);
}

/**
 * Seconds to wait after the `sent`-th send of the campaign: greaterInterval after every
 * longerIntervalAfter sends, otherwise a random whole number of seconds in 0..messageInterval.
 */
export function waitAfterSend(
  sent: number,
  settings: Pick<CampaignSettingsValues, "messageInterval" | "longerIntervalAfter" | "greaterInterval">,
  random: Random,
): number {
  if (settings.longerIntervalAfter > 0 && sent > 0 && sent % settings.longerIntervalAfter === 0)
    return settings.greaterInterval;
  return Math.min(settings.messageInterval, Math.floor(random() * (settings.messageInterval + 1)));
}

/** The hour (0-23) and the start of the day, in `zone`, of the instant `at`. */
function zoned(at: Date, zone: string) {
  const offset = zoneOffsetMs(at.getTime(), zone);
  const local = new Date(at.getTime() + offset);
  const dayStartLocal = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate());
  return { hour: local.getUTCHours(), dayStartLocal, offset };
}

/** The instant the company's day of `at` began. */
export function startOfDay(at: Date, zone: string): Date {
  const { dayStartLocal } = zoned(at, zone);
  return new Date(dayStartLocal - zoneOffsetMs(dayStartLocal, zone));
}

/** The instant of local hour `hour` on the local day `dayStartLocal` (+ `days`). */
function atLocalHour(dayStartLocal: number, days: number, hour: number, zone: string): Date {
  const local = dayStartLocal + days * 86_400_000 + hour * 3_600_000;
  return new Date(local - zoneOffsetMs(local, zone));
}

/**
 * Whether `at` is inside the window [start, end) in the company's zone (a window past midnight,
 * 22 to 6, wraps); when not, the instant it opens next. No window (either hour null): always.
 */
export function windowOpening(
  at: Date,
  settings: Pick<CampaignSettingsValues, "sendWindowStart" | "sendWindowEnd">,
  zone: string,
): Date | null {
  const { sendWindowStart: start, sendWindowEnd: end } = settings;
  if (start === null || end === null || start === end) return null;
  const { hour, dayStartLocal } = zoned(at, zone);
  const inside = start < end ? hour >= start && hour < end : hour >= start || hour < end;
  if (inside) return null;
  // Outside: it opens today at `start` if that is still ahead, else tomorrow.
  return atLocalHour(dayStartLocal, hour < start ? 0 : 1, start, zone);
}

/** The start of the next company day after `at` (when a reached daily cap lets sending go on). */
export function nextDay(at: Date, zone: string): Date {
  const { dayStartLocal } = zoned(at, zone);
  return atLocalHour(dayStartLocal, 1, 0, zone);
}

/** `seconds` after `at`. */
export function countdownTo(at: Date, seconds: number): Date {
  return new Date(at.getTime() + seconds * 1000);
}

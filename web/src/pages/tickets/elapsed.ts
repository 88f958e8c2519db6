export type ElapsedTone = "fresh" | "neutral" | "late" | "overdue";

/** How long a ticket has waited since its last activity, in the unit the label shows. */
export interface Elapsed {
  unit: "minutes" | "hours" | "days";
  value: number;
  tone: ElapsedTone;
}

const MINUTE = 60_000;

/**
 * The spec's elapsed-time label: 3 to 10 min green, 30 to 59 min orange, from 60 min up to 24 h red
 * in hours, 24 h or more red in days. Between 11 and 29 min the label stays, in a neutral tone, so
 * it does not vanish and come back; under 3 min there is nothing to say.
 */
export function elapsedSince(updatedAt: string, now: number): Elapsed | null {
  const minutes = Math.floor((now - new Date(updatedAt).getTime()) / MINUTE);
  if (!Number.isFinite(minutes) || minutes < 3) return null;
  if (minutes <= 10) return { unit: "minutes", value: minutes, tone: "fresh" };
  if (minutes < 30) return { unit: "minutes", value: minutes, tone: "neutral" };
  if (minutes < 60) return { unit: "minutes", value: minutes, tone: "late" };
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return { unit: "hours", value: hours, tone: "overdue" };
  return { unit: "days", value: Math.floor(hours / 24), tone: "overdue" };
}

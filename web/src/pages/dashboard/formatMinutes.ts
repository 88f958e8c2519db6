const pad = (n: number) => String(n).padStart(2, "0");

/**
 * A duration given in minutes as people read it: "12,5 min" under an hour, "2 h 05 min" above,
 * "—" when there is nothing to average. `locale` picks the decimal mark.
 */
export function formatMinutes(minutes: number | null | undefined, locale: string): string {
  if (minutes === null || minutes === undefined || !Number.isFinite(minutes)) return "—";
  if (minutes < 60) {
    return `${new Intl.NumberFormat(locale, { maximumFractionDigits: 1 }).format(minutes)} min`;
  }
  const whole = Math.round(minutes);
  const hours = Math.floor(whole / 60);
  return `${new Intl.NumberFormat(locale).format(hours)} h ${pad(whole % 60)} min`;
}

/** The days a dashboard or report covers: the last `days` days (today included), or a range of calendar days. */
export type PeriodFilter = { kind: "period"; days: number } | { kind: "dates"; from: string; to: string };

/** The period as the chart and report endpoints take it in their query string. */
export function periodQuery(filter: PeriodFilter) {
  return filter.kind === "period"
    ? { days: filter.days }
    : { initialDate: filter.from, finalDate: filter.to };
}

import type { TicketReportRow } from "@atende/contracts";
import type { ReportRow } from "./queries.js";

/** Seconds as minutes with one decimal; null stays null. */
export function minutes(seconds: number | null): number | null {
  return seconds === null ? null : Math.round(seconds / 6) / 10;
}

/** One line of the report: the table's and the CSV's. */
export function presentReportRow(r: ReportRow): TicketReportRow {
  const closed = r.status === "closed" && r.finishedAt !== null;
  return {
    id: r.id,
    uuid: r.uuid,
    status: r.status,
    contact: r.contact,
    user: r.user,
    queue: r.queue,
    whatsapp: r.whatsapp,
    createdAt: r.createdAt.toISOString(),
    closedAt: closed ? r.finishedAt!.toISOString() : null,
    supportTime:
      closed && r.acceptedAt
        ? minutes(Math.max(0, (r.finishedAt!.getTime() - r.acceptedAt.getTime()) / 1000))
        : null,
    waitTime: minutes(r.waitSeconds),
    rating: r.rating,
  };
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** "YYYY-MM-DD HH:mm" in the company's time zone, as a spreadsheet reads it; "" for none. */
export function localTime(iso: string | null, timeZone: string): string {
  if (!iso) return "";
  // Building a formatter costs far more than using one: an export formats thousands of times.
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-CA", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    });
    formatters.set(timeZone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(new Date(iso)).map((p) => [p.type, p.value]));
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}`;
}

export const REPORT_CSV_HEADER = [
  "id",
  "uuid",
  "status",
  "contact",
  "number",
  "user",
  "queue",
  "connection",
  "createdAt",
  "closedAt",
  "waitTime (min)",
  "supportTime (min)",
  "rating",
];

export function reportCsvLine(r: TicketReportRow, timeZone: string): string[] {
  const num = (v: number | null) => (v === null ? "" : String(v));
  return [
    String(r.id),
    r.uuid,
    r.status,
    r.contact.name,
    r.contact.number,
    r.user?.name ?? "",
    r.queue?.name ?? "",
    r.whatsapp?.name ?? "",
    localTime(r.createdAt, timeZone),
    localTime(r.closedAt, timeZone),
    num(r.waitTime),
    num(r.supportTime),
    num(r.rating),
  ];
}

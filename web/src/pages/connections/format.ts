import { formatDate, formatTime } from "../../i18n/format";

/** The connections list's phone mask: 12 or 13 digits show as +55 (11) 98765-4321; anything else as nothing. */
export function formatConnectionNumber(number: string | null | undefined): string {
  const digits = (number ?? "").replace(/\D/g, "");
  if (digits.length !== 12 && digits.length !== 13) return "";
  const country = digits.slice(0, 2);
  const area = digits.slice(2, 4);
  const local = digits.slice(4);
  const split = local.length - 4;
  return `+${country} (${area}) ${local.slice(0, split)}-${local.slice(split)}`;
}

/** The date and the time, in the chosen language on the company's clock. */
export function formatShortDateTime(value: string | null | undefined): string {
  return value ? `${formatDate(value)} ${formatTime(value)}`.trim() : "";
}

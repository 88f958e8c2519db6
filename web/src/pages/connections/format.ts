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

const pad = (n: number) => String(n).padStart(2, "0");

/** dd/MM/yy HH:mm in the browser's time zone. */
export function formatShortDateTime(value: string | null | undefined): string {
  const date = value ? new Date(value) : null;
  if (!date || Number.isNaN(date.getTime())) return "";
  const year = String(date.getFullYear()).slice(-2);
  return `${pad(date.getDate())}/${pad(date.getMonth() + 1)}/${year} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

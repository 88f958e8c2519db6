/**
 * CSV as spreadsheets write it (RFC 4180: quoted fields, doubled quotes, line breaks inside quotes).
 * SheetJS reads an upload (lib/spreadsheet.ts, as for the contact-list import); what it leaves to us
 * is here: the text's encoding, the separator, a quote that never closes. And the writer, for exports.
 */

const SEPARATORS = [",", ";", "\t"] as const;

/**
 * The separator that splits the header line (outside quotes) the most: comma, semicolon (Excel in
 * pt-BR) or tab. SheetJS would guess from the file's first 1,024 characters, data rows included,
 * where a pt-BR file's decimal commas can outnumber its semicolons.
 */
export function detectSeparator(text: string): string {
  const firstLine = text.slice(0, text.search(/\r?\n|$/));
  let best: string = ",";
  let bestCount = 0;
  for (const sep of SEPARATORS) {
    let n = 0;
    let quoted = false;
    for (const ch of firstLine) {
      if (ch === '"') quoted = !quoted;
      else if (ch === sep && !quoted) n++;
    }
    if (n > bestCount) {
      best = sep;
      bestCount = n;
    }
  }
  return best;
}

/**
 * Whether a quoted field never closes, scanned as SheetJS reads the text: a quote opens or closes
 * only in a field that begins with one. SheetJS takes the rest of such a file as one cell without a
 * word; it is a broken file.
 */
export function endsInsideQuotes(text: string, separator: string): boolean {
  let quotedField = text.startsWith('"');
  let inside = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"') {
      if (quotedField) inside = !inside;
    } else if (!inside && (ch === separator || ch === "\n" || ch === "\r")) quotedField = text[i + 1] === '"';
  }
  return inside;
}

/**
 * Text of a CSV upload: UTF-8 (with or without BOM), else Windows-1252, which is how Excel saves
 * "CSV" on most Brazilian and Spanish-speaking machines.
 */
export function decodeText(data: Buffer): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(data);
  } catch {
    return new TextDecoder("windows-1252").decode(data);
  }
}

/** A cell a spreadsheet would run as a formula gets a leading apostrophe (CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: string): string {
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",;\r\n\t]/.test(safe) || safe !== safe.trim() ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** Undoes csvCell's apostrophe, so an exported file imports back as it was. */
export function uncsvCell(value: string): string {
  return /^'[=+\-@\t\r]/.test(value) ? value.slice(1) : value;
}

/** A CSV document with a BOM, so spreadsheets open accents right. */
export function toCsv(rows: string[][]): string {
  return `\uFEFF${rows.map((r) => r.map(csvCell).join(",")).join("\r\n")}\r\n`;
}

/**
 * CSV as spreadsheets write it (RFC 4180: quoted fields, doubled quotes, line breaks inside quotes),
 * read with whichever separator the header line uses: comma, semicolon (Excel in pt-BR) or tab.
 */

const SEPARATORS = [",", ";", "\t"] as const;

/** The separator that splits the header line (outside quotes) the most. */
function detectSeparator(text: string): string {
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

/** Rows of cells. A quote that never closes is a broken file: answers null. */
export function parseCsv(input: string): string[][] | null {
  const text = input.replace(/^\uFEFF/, "");
  const sep = detectSeparator(text);
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch !== '"') cell += ch;
      else if (text[i + 1] === '"') {
        cell += '"';
        i++;
      } else quoted = false;
    } else if (ch === '"' && cell === "") quoted = true;
    else if (ch === sep) {
      row.push(cell);
      cell = "";
    } else if (ch === "\n" || ch === "\r") {
      if (ch === "\r" && text[i + 1] === "\n") i++;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
    } else cell += ch;
  }
  if (quoted) return null;
  if (cell !== "" || row.length > 0) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
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

import * as XLSX from "@e965/xlsx";
import {
  CONTACT_IMPORT_COLUMNS,
  CONTACT_IMPORT_LIMITS,
  type ContactCreateInput,
  type ContactImportRowError,
  type Lang,
  contactCreateSchema,
  errorMessage,
  importColumnKey,
  isErrorCode,
  validationMessage,
} from "@atende/contracts";
import { isOleFile, isZip, readFirstSheet } from "../../lib/spreadsheet.js";
import { decodeText, detectSeparator, endsInsideQuotes, uncsvCell } from "./csv.js";

/**
 * Reading and checking an import's file. This runs in the import's worker thread (importReader.ts),
 * which loads neither the HTTP layer nor the database: a refusal is an ImportRefused with its code,
 * turned into the AppError by the reader.
 */
export type ImportRefusalCode = "ERR_IMPORT_INVALID_FILE" | "ERR_IMPORT_TOO_MANY_ROWS";
export class ImportRefused extends Error {
  constructor(readonly code: ImportRefusalCode) {
    super(code);
  }
}

/** What an import's workbook may unpack to: a small zip must not expand into gigabytes (a zip bomb). */
export const MAX_UNZIPPED_BYTES = 100 * 1024 * 1024;

/**
 * Rows of a sheet read at most (blank lines included): past it the file has too many rows whatever
 * they hold, and SheetJS stops there instead of parsing a million rows of a 300 KB zip.
 */
const MAX_SHEET_ROWS = CONTACT_IMPORT_LIMITS.maxRows * 2;

/** The file's rows as text cells: the first sheet of an .xlsx, or a CSV in any common encoding. */
export function readImportFile(data: Buffer, maxUnzippedBytes = MAX_UNZIPPED_BYTES): string[][] {
  if (data.length === 0) throw new ImportRefused("ERR_IMPORT_INVALID_FILE");
  // Every .xlsx is a zip archive; anything else is read as CSV text.
  if (isOleFile(data)) throw new ImportRefused("ERR_IMPORT_INVALID_FILE");
  if (isZip(data)) return readWorkbook(data, maxUnzippedBytes);
  return readCsv(data);
}

/**
 * A CSV through SheetJS, as the contact-list import reads one: every line a row, blank ones
 * included, and every cell as written (5511999998888 keeps its digits, 041 its zero). The rows are
 * not capped as a workbook's are: the upload's 5 MB bounds the text, and planImport counts the rows
 * that hold something.
 */
function readCsv(data: Buffer): string[][] {
  const text = decodeText(data).replace(/^\uFEFF/, "");
  // NUL bytes do not occur in text: this is some other binary file.
  if (text.includes("\u0000")) throw new ImportRefused("ERR_IMPORT_INVALID_FILE");
  const separator = detectSeparator(text);
  if (endsInsideQuotes(text, separator)) throw new ImportRefused("ERR_IMPORT_INVALID_FILE");
  const sheet = readFirstSheet(text, { raw: true, separator, maxUnzippedBytes: MAX_UNZIPPED_BYTES });
  if (!sheet) throw new ImportRefused("ERR_IMPORT_INVALID_FILE");
  return sheetText(sheet).map((row) => row.map(uncsvCell));
}

/**
 * The first sheet of a workbook through SheetJS (the contact-list import's reader). Numbers stay
 * whole (5511999998888, never 5.5e12); a date cell is its day (YYYY-MM-DD).
 */
function readWorkbook(data: Buffer, maxUnzippedBytes: number): string[][] {
  // A zip past its budget, a zip that is no workbook, a broken workbook: a bad file.
  const sheet = readFirstSheet(data, { sheetRows: MAX_SHEET_ROWS + 1, maxUnzippedBytes, cellDates: true });
  if (!sheet) throw new ImportRefused("ERR_IMPORT_INVALID_FILE");
  // Past MAX_SHEET_ROWS SheetJS stops reading, and `!ref` ends at the last row read: the sheet's
  // whole range (`!fullref`, where it declares one) says whether rows were left unread, data after
  // a stretch of blank lines included. Those would be dropped without a word: the file is refused.
  const full = sheet["!fullref"] ? XLSX.utils.decode_range(sheet["!fullref"]) : null;
  if (full && full.e.r + 1 > MAX_SHEET_ROWS) throw new ImportRefused("ERR_IMPORT_TOO_MANY_ROWS");
  const rows = sheetText(sheet);
  // A sheet whose declared size runs past its last line of data has trailing blank rows.
  while (rows.length > 0 && rows.at(-1)!.every((c) => c === "")) rows.pop();
  if (rows.length > MAX_SHEET_ROWS) throw new ImportRefused("ERR_IMPORT_TOO_MANY_ROWS");
  return rows;
}

/** A sheet's rows as text cells from its first line, so a row's number is its line in the file. */
function sheetText(sheet: XLSX.WorkSheet): string[][] {
  if (!sheet["!ref"]) return [];
  const range = XLSX.utils.decode_range(sheet["!ref"]);
  return XLSX.utils
    .sheet_to_json<unknown[]>(sheet, {
      header: 1,
      raw: true,
      blankrows: true,
      defval: "",
      // A date cell is the day it shows, whatever this server's time zone.
      UTC: true,
      range: { s: { r: 0, c: range.s.c }, e: range.e },
    })
    .map((row) => row.map(cellText));
}

function cellText(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  return String(value);
}

/** One data row, ready for the same checks as the contact dialog. */
export interface ImportCandidate {
  row: number;
  input: ContactCreateInput;
}

export interface ImportPlan {
  /** Rows read, blank lines left out. */
  total: number;
  /** Rows that passed the field rules (their numbers are not yet normalized). */
  candidates: ImportCandidate[];
  errors: ContactImportRowError[];
}

type Field = keyof typeof CONTACT_IMPORT_COLUMNS;

/** Which column holds name, number and email; every other titled column is extra info. */
function mapColumns(header: string[]) {
  const columns: Partial<Record<Field, number>> = {};
  const extra: { index: number; title: string }[] = [];
  header.forEach((title, index) => {
    const key = importColumnKey(title);
    const field = (Object.keys(CONTACT_IMPORT_COLUMNS) as Field[]).find((f) =>
      (CONTACT_IMPORT_COLUMNS[f] as readonly string[]).includes(key),
    );
    if (field && columns[field] === undefined) columns[field] = index;
    else if (title.trim()) extra.push({ index, title: title.trim().slice(0, 100) });
  });
  return { columns, extra };
}

export function rowMessage(code: string, lang: Lang): string {
  return isErrorCode(code) ? errorMessage(code, lang) : validationMessage(code, lang);
}

/**
 * Reads the header and checks every row with the contact dialog's rules. A file without name and
 * number columns, without rows, or with too many rows is refused whole.
 */
export function planImport(rows: string[][], lang: Lang): ImportPlan {
  const headerIndex = rows.findIndex((r) => r.some((c) => c.trim() !== ""));
  if (headerIndex < 0) throw new ImportRefused("ERR_IMPORT_INVALID_FILE");
  const { columns, extra } = mapColumns(rows[headerIndex]!);
  if (columns.name === undefined || columns.number === undefined)
    throw new ImportRefused("ERR_IMPORT_INVALID_FILE");

  const data = rows
    .map((cells, i) => ({ cells, row: i + 1 }))
    .slice(headerIndex + 1)
    .filter(({ cells }) => cells.some((c) => c.trim() !== ""));
  if (data.length === 0) throw new ImportRefused("ERR_IMPORT_INVALID_FILE");
  if (data.length > CONTACT_IMPORT_LIMITS.maxRows) throw new ImportRefused("ERR_IMPORT_TOO_MANY_ROWS");

  const cell = (cells: string[], index: number | undefined) =>
    index === undefined ? "" : (cells[index] ?? "");
  const candidates: ImportCandidate[] = [];
  const errors: ContactImportRowError[] = [];
  for (const { cells, row } of data) {
    const raw = {
      name: cell(cells, columns.name),
      number: cell(cells, columns.number),
      email: cell(cells, columns.email),
      extraInfo: extra
        .map((x) => ({ name: x.title, value: cell(cells, x.index).trim() }))
        .filter((x) => x.value !== ""),
    };
    const parsed = contactCreateSchema.safeParse(raw);
    if (parsed.success) {
      candidates.push({ row, input: parsed.data });
      continue;
    }
    const seen = new Set<string>();
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0] ?? "name") as ContactImportRowError["field"];
      if (seen.has(field)) continue;
      seen.add(field);
      const value = field === "extraInfo" ? "" : String(raw[field as "name" | "number" | "email"] ?? "");
      errors.push({
        row,
        field,
        code: issue.message,
        message: rowMessage(issue.message, lang),
        value: value.slice(0, 100),
      });
    }
  }
  return { total: data.length, candidates, errors };
}

import * as XLSX from "@e965/xlsx";
import { CONTACT_LIST_IMPORT_COLUMNS, contactListItemEmailField, importColumnKey } from "@atende/contracts";
import { isOleFile, isZip, readFirstSheet } from "../../lib/spreadsheet.js";
import { normalizeListNumber } from "./numbers.js";

/**
 * What a spreadsheet may unpack to: 100,000 rows of a wide sheet stay well under it (the bench's
 * 100,000 rows of three columns are 16 MB of XML).
 */
export const MAX_UNZIPPED_BYTES = 256 * 1024 * 1024;

/**
 * Why a spreadsheet is refused as a whole. This module runs in the import's worker thread, which
 * does not load the HTTP layer: the reader turns the code into the AppError.
 */
export type SheetRefusalCode =
  | "ERR_CONTACT_LIST_IMPORT_INVALID_FILE"
  | "ERR_CONTACT_LIST_IMPORT_NO_NUMBER_COLUMN"
  | "ERR_CONTACT_LIST_IMPORT_TOO_LARGE";
export class SheetRefused extends Error {
  constructor(readonly code: SheetRefusalCode) {
    super(code);
  }
}

/** A good row of an import: what becomes an item. */
export interface ImportRow {
  row: number;
  name: string;
  number: string;
  email: string;
}
/** A bad row: its line in the spreadsheet (header = 1) and why. */
export interface ImportRowError {
  row: number;
  reason: string;
  value?: string;
}

/** A sheet opened for reading: its rows are read in slices, so no second copy of all of them is made. */
export interface OpenSheet {
  /** Rows in the sheet's range (the header included), as far as it was read. */
  rows: number;
  /** Rows in the whole sheet where a row limit cut the reading short (xlsx and xls say it), else null. */
  fullRows: number | null;
  /** Rows from..to-1 (0 = the header) as text cells; the rows read are let go (the sheet shrinks as it is read). */
  slice(from: number, to: number): string[][];
}

/**
 * Opens the first sheet of an .xls, .xlsx or .csv (SheetJS reads all three), reading at most
 * `maxRows` rows. Numbers stay whole: 5511999998888 never becomes 5.51E+12, and CSV cells are taken
 * as written. The file's bytes are let go once SheetJS has read them.
 */
export function openSheet(
  data: Buffer,
  fileName: string,
  maxRows: number,
  maxUnzippedBytes = MAX_UNZIPPED_BYTES,
): OpenSheet {
  const isCsv = /\.csv$/i.test(fileName) || !(isZip(data) || isOleFile(data));
  // An .xlsx is a zip: one of 20 MB must not unpack into gigabytes (a zip bomb) in the reader.
  const sheet = readFirstSheet(isCsv ? data.toString("utf8").replace(/^\uFEFF/, "") : data, {
    raw: isCsv,
    sheetRows: maxRows,
    maxUnzippedBytes,
  });
  if (!sheet) throw new SheetRefused("ERR_CONTACT_LIST_IMPORT_INVALID_FILE");
  const range = sheet["!ref"] ? XLSX.utils.decode_range(sheet["!ref"]) : null;
  const full = sheet["!fullref"] ? XLSX.utils.decode_range(sheet["!fullref"]) : null;
  const dense = (sheet as { "!data"?: unknown[] })["!data"];
  return {
    rows: range ? range.e.r + 1 : 0,
    fullRows: full ? full.e.r + 1 : null,
    slice(from, to) {
      if (!range || from >= to) return [];
      const rows = XLSX.utils.sheet_to_json<unknown[]>(sheet, {
        header: 1,
        raw: true,
        blankrows: true,
        defval: "",
        range: { s: { r: range.s.r + from, c: range.s.c }, e: { r: range.s.r + to - 1, c: range.e.c } },
      });
      if (dense) for (let r = range.s.r + from; r < range.s.r + to; r++) dense[r] = undefined;
      return rows.map((r) => r.map(cellText));
    },
  };
}

function cellText(v: unknown): string {
  if (typeof v === "number") return Number.isInteger(v) ? v.toFixed(0) : String(v);
  if (v instanceof Date) return v.toISOString();
  return v == null ? "" : String(v).trim();
}

/** Which column holds name, number and email, by the header's loose names. */
export function columnsOf(header: string[]): { name: number; number: number; email: number } {
  const keys = header.map(importColumnKey);
  const find = (names: readonly string[]) =>
    keys.findIndex((k) => names.some((n) => k === n || (k.startsWith(n) && n.length >= 4)));
  const columns = {
    name: find(CONTACT_LIST_IMPORT_COLUMNS.name),
    number: find(CONTACT_LIST_IMPORT_COLUMNS.number),
    email: find(CONTACT_LIST_IMPORT_COLUMNS.email),
  };
  if (columns.number < 0) throw new SheetRefused("ERR_CONTACT_LIST_IMPORT_NO_NUMBER_COLUMN");
  return columns;
}

/**
 * Checks one row: an empty row is skipped silently (null); a bad one answers its error; a good one
 * its item (the name defaults to the number, as the list needs a name).
 */
export function checkRow(
  cells: string[],
  row: number,
  columns: { name: number; number: number; email: number },
): ImportRow | ImportRowError | null {
  const at = (i: number) => (i >= 0 ? (cells[i] ?? "").trim() : "");
  const rawNumber = at(columns.number);
  const rawName = at(columns.name);
  const rawEmail = at(columns.email);
  if (!rawNumber && !rawName && !rawEmail) return null;
  if (!rawNumber) return { row, reason: "import.noNumber", value: rawName };
  const number = normalizeListNumber(rawNumber);
  if (!number) return { row, reason: "import.invalidNumber", value: rawNumber.slice(0, 100) };
  const email = contactListItemEmailField.safeParse(rawEmail);
  if (!email.success) return { row, reason: "validation.invalidEmail", value: rawEmail.slice(0, 100) };
  // A NUL cannot be stored (PostgreSQL text refuses it): a name loses it, an e-mail is refused above.
  const name = (rawName.replaceAll("\0", "") || number).slice(0, 50);
  return { row, name, number, email: email.data };
}

export const isRowError = (r: ImportRow | ImportRowError): r is ImportRowError => "reason" in r;

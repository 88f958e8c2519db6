import * as XLSX from "@e965/xlsx";
import { zipFitsInMemory } from "./zipBudget.js";

/**
 * What the contacts import and the contact-list import share in reading a spreadsheet through
 * SheetJS: the file's signatures, the zip budget, the reading options, the first sheet. Each keeps
 * its own refusal codes and its own cell text (the contact list trims and writes dates in full, the
 * contacts import keeps a date's day).
 */

/** Zip signature: an .xlsx (or any other zip). */
export const isZip = (data: Buffer) => data.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]));
/** OLE signature: a legacy .xls. */
export const isOleFile = (data: Buffer) => data.subarray(0, 4).equals(Buffer.from([0xd0, 0xcf, 0x11, 0xe0]));

export interface FirstSheetOptions {
  /**
   * Rows read at most: past them SheetJS stops, and the sheet's `!fullref` gives its whole range.
   * None: every row.
   */
  sheetRows?: number;
  /** What a zip may unpack to: a small one must not expand into gigabytes (a zip bomb). */
  maxUnzippedBytes: number;
  /** CSV text: cells taken as written (SheetJS's `raw`). */
  raw?: boolean;
  /** CSV text: the field separator (SheetJS's `FS`); none, and SheetJS guesses it from the text. */
  separator?: string;
  /** Date cells as Dates (else their serial numbers). */
  cellDates?: boolean;
}

/**
 * The first sheet of a workbook (a buffer) or of CSV text (a string), dense, with values only (no
 * formulas, HTML, styles or formatted text). Null when the file cannot be read: a zip past its
 * budget, anything SheetJS refuses, a workbook without a sheet.
 */
export function readFirstSheet(data: Buffer | string, options: FirstSheetOptions): XLSX.WorkSheet | null {
  if (typeof data !== "string" && isZip(data) && !zipFitsInMemory(data, options.maxUnzippedBytes))
    return null;
  let book: XLSX.WorkBook;
  try {
    book = XLSX.read(data, {
      type: typeof data === "string" ? "string" : "buffer",
      raw: options.raw ?? false,
      dense: true,
      cellDates: options.cellDates ?? false,
      cellFormula: false,
      cellHTML: false,
      cellStyles: false,
      // Cells are read raw (their values): SheetJS need not format a text for each one.
      cellText: false,
      sheetRows: options.sheetRows,
      FS: options.separator,
    });
  } catch {
    // A zip that is no workbook, a broken workbook.
    return null;
  }
  const first = book.SheetNames[0];
  return (first && book.Sheets[first]) || null;
}

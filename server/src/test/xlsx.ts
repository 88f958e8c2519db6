import zlib from "node:zlib";

/**
 * Builds a minimal .xlsx workbook (one sheet, inline strings) for the import tests: a zip of the
 * four XML parts a spreadsheet reader needs. Test-only; production code never writes xlsx.
 */
export function buildXlsx(rows: (string | number)[][]): Buffer {
  const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  const col = (i: number) => String.fromCharCode(65 + i);
  const sheetRows = rows
    .map((cells, r) => {
      const xml = cells
        .map((v, c) => {
          const ref = `${col(c)}${r + 1}`;
          return typeof v === "number"
            ? `<c r="${ref}"><v>${v}</v></c>`
            : `<c r="${ref}" t="inlineStr"><is><t>${esc(v)}</t></is></c>`;
        })
        .join("");
      return `<row r="${r + 1}">${xml}</row>`;
    })
    .join("");
  return xlsxOfSheetData(sheetRows);
}

const SHEET_OPEN =
  '<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>';
const SHEET_CLOSE = "</sheetData></worksheet>";

/** The parts of a one-sheet workbook besides the sheet itself. */
function workbookParts(): { name: string; data: Buffer }[] {
  const files: Record<string, string> = {
    "[Content_Types].xml":
      '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>',
    "_rels/.rels":
      '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>',
    "xl/workbook.xml":
      '<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Contatos" sheetId="1" r:id="rId1"/></sheets></workbook>',
    "xl/_rels/workbook.xml.rels":
      '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>',
  };
  return Object.entries(files).map(([name, text]) => ({ name, data: Buffer.from(text, "utf8") }));
}

/** A workbook whose one sheet holds `sheetData` (the XML of its rows) as written. */
export function xlsxOfSheetData(sheetRows: string): Buffer {
  return zip([
    ...workbookParts(),
    {
      name: "xl/worksheets/sheet1.xml",
      data: Buffer.from(`${SHEET_OPEN}${sheetRows}${SHEET_CLOSE}`, "utf8"),
    },
  ]);
}

/**
 * A workbook whose one cell unpacks to `unpackedBytes` of "x" (a zip bomb of the import tests): the
 * cell's bytes are made as a buffer, not a string run through buildXlsx's escaping, which took most of
 * such a test's time (seconds for 120 MB, more on a busy machine).
 */
export function xlsxBomb(unpackedBytes: number): Buffer {
  const head =
    '<row r="1"><c r="A1" t="inlineStr"><is><t>name</t></is></c><c r="B1" t="inlineStr"><is><t>number</t></is></c></row><row r="2"><c r="A2" t="inlineStr"><is><t>';
  const tail = '</t></is></c><c r="B2"><v>5541988770009</v></c></row>';
  const files = workbookParts();
  const sheet = Buffer.concat([
    Buffer.from(`${SHEET_OPEN}${head}`, "utf8"),
    Buffer.alloc(unpackedBytes, "x"),
    Buffer.from(`${tail}${SHEET_CLOSE}`, "utf8"),
  ]);
  return zip([...files, { name: "xl/worksheets/sheet1.xml", data: sheet }]);
}

/** A zip archive with deflated entries (local headers, central directory, end record). */
function zip(entries: { name: string; data: Buffer }[]): Buffer {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const { name, data } of entries) {
    const nameBuf = Buffer.from(name, "utf8");
    const packed = zlib.deflateRawSync(data);
    const crc = zlib.crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0, 6);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(0, 10);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBuf.length, 26);
    local.writeUInt16LE(0, 28);
    locals.push(local, nameBuf, packed);
    const dir = Buffer.alloc(46);
    dir.writeUInt32LE(0x02014b50, 0);
    dir.writeUInt16LE(20, 4);
    dir.writeUInt16LE(20, 6);
    dir.writeUInt16LE(0, 8);
    dir.writeUInt16LE(8, 10);
    dir.writeUInt32LE(0, 12);
    dir.writeUInt32LE(crc, 16);
    dir.writeUInt32LE(packed.length, 20);
    dir.writeUInt32LE(data.length, 24);
    dir.writeUInt16LE(nameBuf.length, 28);
    dir.writeUInt32LE(offset, 42);
    central.push(dir, nameBuf);
    offset += 30 + nameBuf.length + packed.length;
  }
  const dirBuf = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(dirBuf.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, dirBuf, end]);
}

import type { FastifyReply } from "fastify";

/** The media type of an .xlsx workbook. */
export const XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
export const CSV_TYPE = "text/csv; charset=utf-8";

/**
 * A file the browser saves under `filename` (an export, an example sheet): never kept by a cache, as
 * it holds the company's data as of now.
 */
export function sendDownload(reply: FastifyReply, type: string, filename: string, body: string | Buffer) {
  return reply
    .type(type)
    .header("content-disposition", `attachment; filename="${filename}"`)
    .header("cache-control", "no-store")
    .send(body);
}

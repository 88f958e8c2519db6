import type { FileListDTO } from "@atende/contracts";
import type { FileListWithOptions } from "./queries.js";

export function presentFileList(row: FileListWithOptions): FileListDTO {
  return {
    id: row.id,
    companyId: row.companyId,
    name: row.name,
    message: row.message,
    options: row.options.map((o) => ({
      id: o.id,
      fileId: o.fileId,
      name: o.name,
      path: o.path,
      mediaType: o.mediaType,
    })),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

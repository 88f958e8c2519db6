import {
  FILES_PAGE_SIZE,
  type FileListCreateInput,
  type FileListDTO,
  type FileListQuery,
  type FileListUpdateInput,
  type FileListsPage,
} from "@atende/contracts";
import type { Deps } from "../../deps.js";
import { inTransaction } from "../../events/bus.js";
import type { AuthContext } from "../../http/auth.js";
import { AppError } from "../../http/errors.js";
import { presentFileList } from "./present.js";
import * as q from "./queries.js";

export type FileListsDeps = Pick<Deps, "db" | "bus" | "now" | "media">;

/** One file of an upload form, with the option it is for (`id`) and its name, when the form says. */
export interface FileListUpload {
  optionId: number | null;
  name: string;
  filename: string;
  mimetype: string;
  data: Buffer;
}

/** File lists: a message and several files a campaign sends after it. */
export function createFileListsService({ db, bus, now, media }: FileListsDeps) {
  async function existing(companyId: number, id: number) {
    const row = await q.findFileList(db, companyId, id);
    if (!row) throw new AppError("ERR_NO_FILE_LIST_FOUND");
    return row;
  }

  return {
    async page(actor: AuthContext, query: FileListQuery): Promise<FileListsPage> {
      const { rows, count } = await q.pageFileLists(db, actor.companyId, {
        ...query,
        pageSize: FILES_PAGE_SIZE,
      });
      return {
        files: rows.map(presentFileList),
        count,
        hasMore: query.pageNumber * FILES_PAGE_SIZE < count,
      };
    },

    async get(actor: AuthContext, id: number): Promise<FileListDTO> {
      return presentFileList(await existing(actor.companyId, id));
    },

    async create(actor: AuthContext, input: FileListCreateInput): Promise<FileListDTO> {
      const companyId = actor.companyId;
      return inTransaction(db, bus, async (tx, raise) => {
        const at = now();
        const row = await q.insertFileList(tx, {
          companyId,
          name: input.name,
          message: input.message,
          createdAt: at,
          updatedAt: at,
        });
        for (const o of input.options)
          await q.insertOption(tx, { fileId: row.id, companyId, name: o.name, createdAt: at, updatedAt: at });
        const saved = await q.findFileList(tx, companyId, row.id);
        const files = presentFileList(saved!);
        raise({ type: "fileList.changed", companyId, payload: { action: "create", files } });
        return files;
      });
    },

    /** Options, when sent, are the list's files from now on: kept by id, new ones added, others removed. */
    async update(actor: AuthContext, id: number, input: FileListUpdateInput): Promise<FileListDTO> {
      const companyId = actor.companyId;
      const before = await existing(companyId, id);
      const { result, removed } = await inTransaction(db, bus, async (tx, raise) => {
        const at = now();
        const row = await q.updateFileList(tx, companyId, id, {
          ...(input.name !== undefined ? { name: input.name } : {}),
          ...(input.message !== undefined ? { message: input.message } : {}),
          updatedAt: at,
        });
        if (!row) throw new AppError("ERR_NO_FILE_LIST_FOUND");
        let gone: { path: string }[] = [];
        if (input.options) {
          const known = new Set(before.options.map((o) => o.id));
          const keep = input.options.filter((o) => o.id && known.has(o.id)).map((o) => o.id!);
          gone = await q.deleteOptionsExcept(tx, companyId, id, keep);
          for (const o of input.options) {
            if (o.id && known.has(o.id))
              await q.updateOption(tx, companyId, id, o.id, { name: o.name, updatedAt: at });
            else
              await q.insertOption(tx, { fileId: id, companyId, name: o.name, createdAt: at, updatedAt: at });
          }
        }
        const files = presentFileList((await q.findFileList(tx, companyId, id))!);
        raise({ type: "fileList.changed", companyId, payload: { action: "update", files } });
        return { result: files, removed: gone };
      });
      await Promise.all(removed.map((o) => removeStored(companyId, o.path)));
      return result;
    },

    async remove(actor: AuthContext, id: number): Promise<void> {
      const companyId = actor.companyId;
      const before = await existing(companyId, id);
      await inTransaction(db, bus, async (tx, raise) => {
        if (!(await q.deleteFileList(tx, companyId, id))) throw new AppError("ERR_NO_FILE_LIST_FOUND");
        raise({ type: "fileList.changed", companyId, payload: { action: "delete", fileId: id } });
      });
      await Promise.all(before.options.map((o) => removeStored(companyId, o.path)));
    },

    /**
     * POST /files/uploadList/{id}: each file goes to the option the form names for it (`id`, in
     * order), or becomes a new option named as the form says (or by its file name). The media type
     * is the file's own, read from its bytes.
     */
    async upload(
      actor: AuthContext,
      id: number,
      read: () => Promise<FileListUpload[]>,
    ): Promise<FileListDTO> {
      const companyId = actor.companyId;
      const before = await existing(companyId, id);
      const uploads = await read();
      if (uploads.length === 0) throw new AppError("ERR_FILE_LIST_NO_FILE");
      const stored: { upload: FileListUpload; saved: Awaited<ReturnType<typeof media.save>> }[] = [];
      for (const u of uploads)
        stored.push({ upload: u, saved: await media.save(companyId, u.data, u.mimetype) });
      const replaced: string[] = [];
      const files = await inTransaction(db, bus, async (tx, raise) => {
        const at = now();
        for (const { upload, saved } of stored) {
          const option = upload.optionId ? before.options.find((o) => o.id === upload.optionId) : undefined;
          if (option) {
            if (option.path) replaced.push(option.path);
            await q.updateOption(tx, companyId, id, option.id, {
              path: saved.path,
              mediaType: saved.mimetype,
              ...(upload.name ? { name: upload.name } : {}),
              updatedAt: at,
            });
          } else
            await q.insertOption(tx, {
              fileId: id,
              companyId,
              name: (upload.name || upload.filename).slice(0, 200),
              path: saved.path,
              mediaType: saved.mimetype,
              createdAt: at,
              updatedAt: at,
            });
        }
        const dto = presentFileList((await q.findFileList(tx, companyId, id))!);
        raise({ type: "fileList.changed", companyId, payload: { action: "update", files: dto } });
        return dto;
      });
      await Promise.all(replaced.map((p) => removeStored(companyId, p)));
      return files;
    },

    /** A file of a list, to show or download it. */
    async readOption(actor: AuthContext, id: number, optionId: number) {
      const list = await existing(actor.companyId, id);
      const option = list.options.find((o) => o.id === optionId);
      const data = option?.path ? await media.read(actor.companyId, option.path) : null;
      if (!option || !data) throw new AppError("ERR_NO_FILE_LIST_FOUND");
      return { data, mimetype: option.mediaType || "application/octet-stream", name: option.name };
    },
  };

  async function removeStored(companyId: number, path: string) {
    if (path) await media.remove(companyId, path);
  }
}

export type FileListsService = ReturnType<typeof createFileListsService>;

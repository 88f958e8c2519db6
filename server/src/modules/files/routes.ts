import multipart from "@fastify/multipart";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import {
  FILE_LIST_MAX_BYTES,
  FILE_LIST_OPTIONS_MAX,
  fileListCreateSchema,
  fileListQuerySchema,
  fileListSchema,
  fileListUpdateSchema,
  fileListsPageSchema,
  idParam,
  idValue,
  messageAnswer,
} from "@atende/contracts";
import { AppError } from "../../http/errors.js";
import { routes } from "../../http/route.js";
import {
  type FileListUpload,
  type FileListsDeps,
  type FileListsService,
  createFileListsService,
} from "./service.js";

const uploadListForm = z.object({
  files: z.array(z.string().meta({ format: "binary" })),
  id: z.array(z.string()).optional(),
  name: z.array(z.string()).optional(),
  mediaType: z.array(z.string()).optional(),
  fileId: z.string().optional(),
  typeArch: z.string().optional(),
});
const optionParams = z.object({ id: idValue, optionId: idValue });

/**
 * The uploadList form as clients of this API family send it: files in order, and beside them
 * repeated `id` (the option each file is for) and `name` fields in the same order.
 */
async function readUploadList(req: FastifyRequest): Promise<FileListUpload[]> {
  if (!req.isMultipart()) throw new AppError("ERR_FILE_LIST_NO_FILE");
  const files: { filename: string; mimetype: string; data: Buffer }[] = [];
  const ids: string[] = [];
  const names: string[] = [];
  try {
    for await (const part of req.parts()) {
      if (part.type === "file") {
        const data = await part.toBuffer();
        if (data.length > 0)
          files.push({ filename: part.filename || "arquivo", mimetype: part.mimetype, data });
      } else if (part.fieldname === "id") ids.push(String(part.value));
      else if (part.fieldname === "name") names.push(String(part.value));
    }
  } catch (err) {
    if ((err as { code?: string }).code === "FST_REQ_FILE_TOO_LARGE")
      throw new AppError("ERR_FILE_LIST_FILE_TOO_LARGE");
    if ((err as { code?: string }).code === "FST_FILES_LIMIT") throw new AppError("ERR_VALIDATION");
    throw new AppError("ERR_FILE_LIST_NO_FILE");
  }
  return files.map((f, i) => {
    const id = idValue.safeParse(ids[i]);
    return { ...f, optionId: id.success ? id.data : null, name: (names[i] ?? "").trim() };
  });
}

export function fileListsRoutes(app: FastifyInstance, files: FileListsService) {
  const r = routes(app);
  const byId = { access: "user", params: idParam } as const;
  r.get(
    "/files",
    { access: "user", query: fileListQuerySchema, response: fileListsPageSchema },
    ({ auth, query }) => files.page(auth, query),
  );
  r.get(
    "/files/:id",
    { errors: ["ERR_NO_FILE_LIST_FOUND"], ...byId, response: fileListSchema },
    ({ auth, params }) => files.get(auth, params.id),
  );
  r.post(
    "/files",
    { access: "user", body: fileListCreateSchema, status: 201, response: fileListSchema },
    ({ auth, body }) => files.create(auth, body),
  );
  r.put(
    "/files/:id",
    { errors: ["ERR_NO_FILE_LIST_FOUND"], ...byId, body: fileListUpdateSchema, response: fileListSchema },
    ({ auth, params, body }) => files.update(auth, params.id, body),
  );
  r.delete(
    "/files/:id",
    { errors: ["ERR_NO_FILE_LIST_FOUND"], ...byId, response: messageAnswer },
    async ({ auth, params }) => {
      await files.remove(auth, params.id);
      return { message: "File List deleted" };
    },
  );
  r.post(
    "/files/uploadList/:id",
    {
      errors: ["ERR_FILE_LIST_NO_FILE", "ERR_NO_FILE_LIST_FOUND"],
      ...byId,
      bodyDoc: uploadListForm,
      consumes: ["multipart/form-data"],
      response: fileListSchema,
    },
    ({ auth, params }, req) => files.upload(auth, params.id, () => readUploadList(req)),
  );
  r.get(
    "/files/:id/options/:optionId",
    {
      errors: ["ERR_NO_FILE_LIST_FOUND"],
      access: "user",
      params: optionParams,
      produces: "application/octet-stream",
    },
    async ({ auth, params }, _req, reply) => {
      const file = await files.readOption(auth, params.id, params.optionId);
      return reply
        .header("content-type", file.mimetype)
        .header("x-content-type-options", "nosniff")
        .header("content-security-policy", "default-src 'none'; sandbox")
        .header("content-disposition", `inline; filename="${encodeURIComponent(file.name)}"`)
        .send(file.data);
    },
  );
}

/** File lists (/files): a message and its files, which campaigns send. */
export async function fileListsModule(
  parent: FastifyInstance,
  deps: FileListsDeps,
): Promise<FileListsService> {
  const files = createFileListsService(deps);
  await parent.register(async (app) => {
    await app.register(multipart, {
      limits: { fileSize: FILE_LIST_MAX_BYTES, files: FILE_LIST_OPTIONS_MAX, fields: 100 },
      throwFileSizeLimit: true,
    });
    fileListsRoutes(app, files);
  });
  return files;
}

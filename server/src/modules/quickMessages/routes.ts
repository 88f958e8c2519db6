import multipart from "@fastify/multipart";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import {
  idParam,
  listQuerySchema,
  quickMessageCreateSchema,
  quickMessageSchema,
  quickMessageUpdateSchema,
  quickMessagesPageSchema,
} from "@atende/contracts";
import { routes } from "../../http/route.js";
import { readSingleUpload, uploadForm } from "../../http/upload.js";
import { type QuickMessagesDeps, type QuickMessagesService, createQuickMessagesService } from "./service.js";

export function quickMessagesRoutes(app: FastifyInstance, quick: QuickMessagesService) {
  const r = routes(app);
  // Every user has their own; the service asks quick-messages:editAny / global for the rest.
  const byId = { access: "user", params: idParam } as const;

  r.get(
    "/quick-messages",
    { access: "user", query: listQuerySchema, response: quickMessagesPageSchema },
    ({ auth, query }) => quick.page(auth, query),
  );
  r.get(
    "/quick-messages/list",
    { access: "user", operationId: "quickMessages.listAll", response: z.array(quickMessageSchema) },
    ({ auth }) => quick.list(auth),
  );
  r.get(
    "/quick-messages/:id",
    { errors: ["ERR_NO_QUICK_MESSAGE_FOUND"], ...byId, response: quickMessageSchema },
    ({ auth, params }) => quick.get(auth, params.id),
  );
  r.post(
    "/quick-messages",
    {
      errors: ["ERR_NO_PERMISSION"],
      access: "user",
      body: quickMessageCreateSchema,
      status: 201,
      response: quickMessageSchema,
    },
    ({ auth, body }) => quick.create(auth, body),
  );
  r.put(
    "/quick-messages/:id",
    {
      errors: ["ERR_NO_PERMISSION", "ERR_NO_QUICK_MESSAGE_FOUND"],
      ...byId,
      body: quickMessageUpdateSchema,
      response: quickMessageSchema,
    },
    ({ auth, params, body }) => quick.update(auth, params.id, body),
  );
  r.delete(
    "/quick-messages/:id",
    { errors: ["ERR_NO_PERMISSION", "ERR_NO_QUICK_MESSAGE_FOUND"], ...byId, status: 204 },
    ({ auth, params }) => quick.remove(auth, params.id),
  );
  r.post(
    "/quick-messages/:id/media-upload",
    {
      errors: ["ERR_NO_PERMISSION", "ERR_NO_QUICK_MESSAGE_FOUND"],
      ...byId,
      bodyDoc: uploadForm,
      consumes: ["multipart/form-data"],
      response: quickMessageSchema,
    },
    ({ auth, params }, req) => quick.attachMedia(auth, params.id, () => readSingleUpload(req)),
  );
  r.delete(
    "/quick-messages/:id/media-upload",
    { errors: ["ERR_NO_QUICK_MESSAGE_FOUND"], ...byId, response: quickMessageSchema },
    ({ auth, params }) => quick.removeMedia(auth, params.id),
  );
}

/** The quick messages module: the page, the chat's '/' list and attachments. */
export async function quickMessagesModule(
  parent: FastifyInstance,
  deps: QuickMessagesDeps & { maxFileBytes: number },
): Promise<QuickMessagesService> {
  const quick = createQuickMessagesService(deps);
  await parent.register(async (app) => {
    await app.register(multipart, {
      limits: { fileSize: deps.maxFileBytes, files: 1, fields: 10 },
      throwFileSizeLimit: true,
    });
    quickMessagesRoutes(app, quick);
  });
  return quick;
}

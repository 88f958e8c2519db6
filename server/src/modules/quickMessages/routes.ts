import multipart from "@fastify/multipart";
import type { FastifyInstance, FastifyRequest } from "fastify";
import {
  idParam,
  listQuerySchema,
  quickMessageCreateSchema,
  quickMessageUpdateSchema,
} from "@atende/contracts";
import { authOf } from "../../http/auth.js";
import { parseInput } from "../../http/errors.js";
import { readSingleUpload } from "../../http/upload.js";
import { type QuickMessagesDeps, type QuickMessagesService, createQuickMessagesService } from "./service.js";

export function quickMessagesRoutes(app: FastifyInstance, quick: QuickMessagesService) {
  const id = (req: FastifyRequest) => parseInput(idParam, req.params, req).id;

  app.get("/quick-messages", async (req) =>
    quick.page(authOf(req), parseInput(listQuerySchema, req.query, req)),
  );
  app.get("/quick-messages/list", async (req) => quick.list(authOf(req)));
  app.get("/quick-messages/:id", async (req) => quick.get(authOf(req), id(req)));
  app.post("/quick-messages", async (req, reply) =>
    reply
      .status(201)
      .send(await quick.create(authOf(req), parseInput(quickMessageCreateSchema, req.body, req))),
  );
  app.put("/quick-messages/:id", async (req) =>
    quick.update(authOf(req), id(req), parseInput(quickMessageUpdateSchema, req.body, req)),
  );
  app.delete("/quick-messages/:id", async (req, reply) => {
    await quick.remove(authOf(req), id(req));
    return reply.status(204).send();
  });
  app.post("/quick-messages/:id/media-upload", async (req) =>
    quick.attachMedia(authOf(req), id(req), () => readSingleUpload(req)),
  );
  app.delete("/quick-messages/:id/media-upload", async (req) => quick.removeMedia(authOf(req), id(req)));
}

/** The quick messages module behind the auth hook: the page, the chat's '/' list and attachments. */
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

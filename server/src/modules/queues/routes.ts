import multipart from "@fastify/multipart";
import type { FastifyInstance, FastifyRequest } from "fastify";
import {
  idParam,
  queueOptionCreateSchema,
  queueOptionUpdateSchema,
  queueOptionsQuerySchema,
  queueSaveSchema,
} from "@atende/contracts";
import { authOf } from "../../http/auth.js";
import { parseInput } from "../../http/errors.js";
import { readSingleUpload } from "../../http/upload.js";
import { type QueuesDeps, type QueuesService, createQueuesService } from "./service.js";

export function queuesRoutes(app: FastifyInstance, queues: QueuesService) {
  const id = (req: FastifyRequest) => parseInput(idParam, req.params, req).id;

  app.get("/queue", async (req) => queues.list(authOf(req)));
  app.get("/queue/:id", async (req) => queues.get(authOf(req), id(req)));
  app.post("/queue", async (req, reply) =>
    reply.status(201).send(await queues.create(authOf(req), parseInput(queueSaveSchema, req.body, req))),
  );
  app.put("/queue/:id", async (req) =>
    queues.update(authOf(req), id(req), parseInput(queueSaveSchema, req.body, req)),
  );
  app.delete("/queue/:id", async (req, reply) => {
    await queues.remove(authOf(req), id(req));
    return reply.status(204).send();
  });
  app.post("/queue/:id/media-upload", async (req) =>
    queues.attachMedia(authOf(req), id(req), () => readSingleUpload(req)),
  );
  app.delete("/queue/:id/media-upload", async (req) => queues.removeMedia(authOf(req), id(req)));

  app.get("/queue-options", async (req) =>
    queues.listOptions(authOf(req), parseInput(queueOptionsQuerySchema, req.query, req)),
  );
  app.get("/queue-options/:id", async (req) => queues.getOption(authOf(req), id(req)));
  app.post("/queue-options", async (req, reply) =>
    reply
      .status(201)
      .send(await queues.createOption(authOf(req), parseInput(queueOptionCreateSchema, req.body, req))),
  );
  app.put("/queue-options/:id", async (req) =>
    queues.updateOption(authOf(req), id(req), parseInput(queueOptionUpdateSchema, req.body, req)),
  );
  app.delete("/queue-options/:id", async (req, reply) => {
    await queues.removeOption(authOf(req), id(req));
    return reply.status(204).send();
  });
  app.post("/queue-options/:id/media-upload", async (req) =>
    queues.attachOptionMedia(authOf(req), id(req), () => readSingleUpload(req)),
  );
  app.delete("/queue-options/:id/media-upload", async (req) =>
    queues.removeOptionMedia(authOf(req), id(req)),
  );
}

/** The queues module behind the auth hook: queues, their chatbot menus and their media. */
export async function queuesModule(
  parent: FastifyInstance,
  deps: QueuesDeps & { maxFileBytes: number },
): Promise<QueuesService> {
  const queues = createQueuesService(deps);
  await parent.register(async (app) => {
    await app.register(multipart, {
      limits: { fileSize: deps.maxFileBytes, files: 1, fields: 10 },
      throwFileSizeLimit: true,
    });
    queuesRoutes(app, queues);
  });
  return queues;
}

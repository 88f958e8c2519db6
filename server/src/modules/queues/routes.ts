import multipart from "@fastify/multipart";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import {
  idParam,
  queueDetailSchema,
  queueOptionCreateSchema,
  queueOptionSchema,
  queueOptionUpdateSchema,
  queueOptionsQuerySchema,
  queueSaveSchema,
} from "@atende/contracts";
import { routes } from "../../http/route.js";
import { readSingleUpload, uploadForm } from "../../http/upload.js";
import { type QueuesDeps, type QueuesService, createQueuesService } from "./service.js";

export function queuesRoutes(app: FastifyInstance, queues: QueuesService) {
  const r = routes(app);
  // Every user reads queues (pickers, transfer, the chatbot's menu); admins manage them.
  const manage = "queues-page:manage";
  const byId = { params: idParam } as const;
  const upload = { ...byId, access: manage, bodyDoc: uploadForm, consumes: ["multipart/form-data"] } as const;
  const queue = { response: queueDetailSchema } as const;
  const option = { response: queueOptionSchema } as const;

  r.get("/queue", { access: "user", response: z.array(queueDetailSchema) }, ({ auth }) => queues.list(auth));
  r.get(
    "/queue/:id",
    { errors: ["ERR_NO_QUEUE_FOUND"], ...byId, ...queue, access: "user" },
    ({ auth, params }) => queues.get(auth, params.id),
  );
  r.post(
    "/queue",
    {
      errors: [
        "ERR_NO_PROMPT_FOUND",
        "ERR_NO_QUEUE_INTEGRATION_FOUND",
        "ERR_PLAN_FEATURE_DISABLED",
        "ERR_PLAN_QUEUE_LIMIT",
        "ERR_QUEUE_COLOR_ALREADY_EXISTS",
        "ERR_QUEUE_NAME_ALREADY_EXISTS",
      ],
      ...queue,
      access: manage,
      body: queueSaveSchema,
      status: 201,
    },
    ({ auth, body }) => queues.create(auth, body),
  );
  r.put(
    "/queue/:id",
    {
      errors: [
        "ERR_NO_QUEUE_FOUND",
        "ERR_NO_QUEUE_INTEGRATION_FOUND",
        "ERR_PLAN_FEATURE_DISABLED",
        "ERR_QUEUE_COLOR_ALREADY_EXISTS",
      ],
      ...byId,
      ...queue,
      access: manage,
      body: queueSaveSchema,
    },
    ({ auth, params, body }) => queues.update(auth, params.id, body),
  );
  r.delete(
    "/queue/:id",
    { errors: ["ERR_NO_QUEUE_FOUND"], ...byId, access: manage, status: 204 },
    ({ auth, params }) => queues.remove(auth, params.id),
  );
  r.post(
    "/queue/:id/media-upload",
    { errors: ["ERR_MEDIA_TOO_LARGE", "ERR_NO_QUEUE_FOUND"], ...upload, ...queue },
    ({ auth, params }, req) => queues.attachMedia(auth, params.id, () => readSingleUpload(req)),
  );
  r.delete(
    "/queue/:id/media-upload",
    { errors: ["ERR_NO_QUEUE_FOUND"], ...byId, ...queue, access: manage },
    ({ auth, params }) => queues.removeMedia(auth, params.id),
  );

  r.get(
    "/queue-options",
    {
      errors: ["ERR_NO_QUEUE_FOUND", "ERR_NO_QUEUE_OPTION_FOUND"],
      access: "user",
      query: queueOptionsQuerySchema,
      response: z.array(queueOptionSchema),
    },
    ({ auth, query }) => queues.listOptions(auth, query),
  );
  r.get(
    "/queue-options/:id",
    { errors: ["ERR_NO_QUEUE_OPTION_FOUND"], ...byId, ...option, access: "user" },
    ({ auth, params }) => queues.getOption(auth, params.id),
  );
  r.post(
    "/queue-options",
    {
      errors: [
        "ERR_NO_QUEUE_FOUND",
        "ERR_NO_QUEUE_OPTION_FOUND",
        "ERR_QUEUE_OPTIONS_LIMIT",
        "ERR_QUEUE_OPTION_NUMBER_TAKEN",
      ],
      ...option,
      access: manage,
      body: queueOptionCreateSchema,
      status: 201,
    },
    ({ auth, body }) => queues.createOption(auth, body),
  );
  r.put(
    "/queue-options/:id",
    {
      errors: ["ERR_NO_QUEUE_OPTION_FOUND", "ERR_QUEUE_OPTION_NUMBER_TAKEN"],
      ...byId,
      ...option,
      access: manage,
      body: queueOptionUpdateSchema,
    },
    ({ auth, params, body }) => queues.updateOption(auth, params.id, body),
  );
  r.delete(
    "/queue-options/:id",
    { errors: ["ERR_NO_QUEUE_OPTION_FOUND"], ...byId, access: manage, status: 204 },
    ({ auth, params }) => queues.removeOption(auth, params.id),
  );
  r.post(
    "/queue-options/:id/media-upload",
    { errors: ["ERR_NO_QUEUE_OPTION_FOUND"], ...upload, ...option },
    ({ auth, params }, req) => queues.attachOptionMedia(auth, params.id, () => readSingleUpload(req)),
  );
  r.delete(
    "/queue-options/:id/media-upload",
    { errors: ["ERR_NO_QUEUE_OPTION_FOUND"], ...byId, ...option, access: manage },
    ({ auth, params }) => queues.removeOptionMedia(auth, params.id),
  );
}

/** The queues module: queues, their chatbot menus and their media. */
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

import multipart from "@fastify/multipart";
import type { FastifyInstance } from "fastify";
import {
  idParam,
  scheduleCreateSchema,
  scheduleSchema,
  scheduleUpdateSchema,
  schedulesPageSchema,
  schedulesQuerySchema,
} from "@atende/contracts";
import type { Db } from "../../db/client.js";
import type { EventBus } from "../../events/bus.js";
import { langOf } from "../../http/errors.js";
import { routes } from "../../http/route.js";
import { readSingleUpload, uploadForm } from "../../http/upload.js";
import type { JobRunner } from "../../jobs/runner.js";
import { SEND_SCHEDULE_JOB, SETTLE_SCHEDULE_JOB } from "./queries.js";
import { sendScheduleJob, settleScheduleJob } from "./sending.js";
import { type SchedulesDeps, type SchedulesService, createSchedulesService } from "./service.js";

export function schedulesRoutes(app: FastifyInstance, schedules: SchedulesService) {
  const r = routes(app);
  // The author or schedules:editAny (the service decides); the plan's useSchedules.
  const scheduled = { access: "user", plan: "useSchedules" } as const;
  const byId = { ...scheduled, params: idParam } as const;

  r.get(
    "/schedules",
    { ...scheduled, query: schedulesQuerySchema, response: schedulesPageSchema },
    ({ auth, query }) => schedules.page(auth, query),
  );
  r.get(
    "/schedules/:id",
    { errors: ["ERR_NO_SCHEDULE_FOUND"], ...byId, response: scheduleSchema },
    ({ auth, params }) => schedules.get(auth, params.id),
  );
  r.post(
    "/schedules",
    {
      errors: ["ERR_NO_CONTACT_FOUND", "ERR_NO_WAPP_FOUND", "ERR_PLAN_SCHEDULE_LIMIT"],
      ...scheduled,
      body: scheduleCreateSchema,
      status: 201,
      response: scheduleSchema,
    },
    ({ auth, body }) => schedules.create(auth, body),
  );
  r.put(
    "/schedules/:id",
    {
      errors: ["ERR_NO_PERMISSION", "ERR_NO_SCHEDULE_FOUND", "ERR_SCHEDULE_ALREADY_SENT"],
      ...byId,
      body: scheduleUpdateSchema,
      response: scheduleSchema,
    },
    ({ auth, params, body }) => schedules.update(auth, params.id, body),
  );
  r.delete(
    "/schedules/:id",
    { errors: ["ERR_NO_PERMISSION", "ERR_NO_SCHEDULE_FOUND"], ...byId, status: 204 },
    ({ auth, params }) => schedules.remove(auth, params.id),
  );
  r.post(
    "/schedules/:id/media-upload",
    {
      errors: ["ERR_NO_SCHEDULE_FOUND", "ERR_SCHEDULE_ALREADY_SENT"],
      ...byId,
      bodyDoc: uploadForm,
      consumes: ["multipart/form-data"],
      response: scheduleSchema,
    },
    ({ auth, params }, req) =>
      schedules.attachMedia(auth, params.id, () => readSingleUpload(req), langOf(req)),
  );
  r.delete(
    "/schedules/:id/media-upload",
    { errors: ["ERR_NO_SCHEDULE_FOUND"], ...byId, response: scheduleSchema },
    ({ auth, params }) => schedules.removeMedia(auth, params.id),
  );
}

/**
 * The durable jobs that send schedules and mark them sent when WhatsApp takes them (queued with the
 * message's ack: see settleWithin, wired in listeners.ts).
 */
export function registerScheduleJobs(deps: { db: Db; bus: EventBus; now: () => Date; jobs: JobRunner }) {
  const { jobs } = deps;
  jobs.register(SEND_SCHEDULE_JOB, sendScheduleJob(deps));
  jobs.register(SETTLE_SCHEDULE_JOB, settleScheduleJob(deps));
}

/** The schedules module: the page's calls, attachments and the sending jobs. */
export async function schedulesModule(
  parent: FastifyInstance,
  deps: Omit<SchedulesDeps, "jobs"> & { jobs: JobRunner; maxFileBytes: number },
): Promise<SchedulesService> {
  registerScheduleJobs(deps);
  const schedules = createSchedulesService(deps);
  await parent.register(async (app) => {
    await app.register(multipart, {
      limits: { fileSize: deps.maxFileBytes, files: 1, fields: 10 },
      throwFileSizeLimit: true,
    });
    schedulesRoutes(app, schedules);
  });
  return schedules;
}

import multipart from "@fastify/multipart";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { idParam, scheduleCreateSchema, scheduleUpdateSchema, schedulesQuerySchema } from "@atende/contracts";
import type { Db } from "../../db/client.js";
import type { EventBus } from "../../events/bus.js";
import { authOf } from "../../http/auth.js";
import { langOf, parseInput } from "../../http/errors.js";
import { readSingleUpload } from "../../http/upload.js";
import type { JobRunner } from "../../jobs/runner.js";
import { SEND_SCHEDULE_JOB, SETTLE_SCHEDULE_JOB } from "./queries.js";
import { sendScheduleJob, settleScheduleJob } from "./sending.js";
import { type SchedulesDeps, type SchedulesService, createSchedulesService } from "./service.js";

export function schedulesRoutes(app: FastifyInstance, schedules: SchedulesService) {
  const id = (req: FastifyRequest) => parseInput(idParam, req.params, req).id;

  app.get("/schedules", async (req) =>
    schedules.page(authOf(req), parseInput(schedulesQuerySchema, req.query, req)),
  );
  app.get("/schedules/:id", async (req) => schedules.get(authOf(req), id(req)));
  app.post("/schedules", async (req, reply) =>
    reply
      .status(201)
      .send(await schedules.create(authOf(req), parseInput(scheduleCreateSchema, req.body, req))),
  );
  app.put("/schedules/:id", async (req) =>
    schedules.update(authOf(req), id(req), parseInput(scheduleUpdateSchema, req.body, req)),
  );
  app.delete("/schedules/:id", async (req, reply) => {
    await schedules.remove(authOf(req), id(req));
    return reply.status(204).send();
  });
  app.post("/schedules/:id/media-upload", async (req) =>
    schedules.attachMedia(authOf(req), id(req), () => readSingleUpload(req), langOf(req)),
  );
  app.delete("/schedules/:id/media-upload", async (req) => schedules.removeMedia(authOf(req), id(req)));
}

/**
 * The durable jobs that send schedules and mark them sent when WhatsApp takes them (queued with the
 * message's ack: see settleWithin, wired in events/listeners.ts).
 */
export function registerScheduleJobs(deps: { db: Db; bus: EventBus; now: () => Date; jobs: JobRunner }) {
  const { jobs } = deps;
  jobs.register(SEND_SCHEDULE_JOB, sendScheduleJob(deps));
  jobs.register(SETTLE_SCHEDULE_JOB, settleScheduleJob(deps));
}

/** The schedules module behind the auth hook: the page's calls, attachments and the sending jobs. */
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

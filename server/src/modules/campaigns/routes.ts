import multipart from "@fastify/multipart";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import {
  campaignAudienceQuerySchema,
  campaignAudienceSchema,
  campaignCreateSchema,
  campaignListQuerySchema,
  campaignReportQuerySchema,
  campaignReportSchema,
  campaignSchema,
  campaignSettingRowSchema,
  campaignSettingsBodySchema,
  campaignUpdateSchema,
  campaignsPageSchema,
  idParam,
} from "@atende/contracts";
import type { SessionManager } from "../../channels/sessions.js";
import { langOf } from "../../http/errors.js";
import { routes } from "../../http/route.js";
import { readSingleUpload, uploadForm } from "../../http/upload.js";
import type { JobRunner } from "../../jobs/runner.js";
import { confirmCampaignJob, confirmTimeoutJob } from "./answers.js";
import { CAMPAIGNS_ACCESS } from "./policy.js";
import * as q from "./queries.js";
import { type CampaignReport, createCampaignReport } from "./report.js";
import { type SenderDeps, startCampaignJob, stepCampaignJob } from "./sender.js";
import { type CampaignsDeps, type CampaignsService, createCampaignsService } from "./service.js";
import { type CampaignSettingsService, createCampaignSettingsService } from "./settings.js";
import type { Random } from "./variables.js";

export function campaignsRoutes(
  app: FastifyInstance,
  campaigns: CampaignsService,
  report: CampaignReport,
  settings: CampaignSettingsService,
) {
  const r = routes(app);
  // The admin's pages (the campaigns menu), on a plan with useCampaigns.
  const gated = { access: CAMPAIGNS_ACCESS, plan: "useCampaigns" } as const;
  const byId = { ...gated, params: idParam } as const;
  // The routes that answer the campaign as it is after the call.
  const answersCampaign = { ...byId, response: campaignSchema } as const;
  const settingRows = z.array(campaignSettingRowSchema);

  r.get(
    "/campaigns",
    { ...gated, query: campaignListQuerySchema, response: campaignsPageSchema },
    ({ auth, query }) => campaigns.page(auth, query),
  );
  r.get(
    "/campaigns/audience",
    { ...gated, query: campaignAudienceQuerySchema, response: campaignAudienceSchema },
    ({ auth, query }) => campaigns.audience(auth, query),
  );
  r.get("/campaigns/:id", { ...answersCampaign, errors: ["ERR_CAMPAIGN_NOT_FOUND"] }, ({ auth, params }) =>
    campaigns.get(auth, params.id),
  );
  r.post(
    "/campaigns",
    {
      errors: [
        "ERR_CAMPAIGN_CONTACT_LIST_NOT_FOUND",
        "ERR_CAMPAIGN_FILE_LIST_NOT_FOUND",
        "ERR_CAMPAIGN_NO_AUDIENCE",
        "ERR_CAMPAIGN_NO_CONFIRMATION_MESSAGE",
        "ERR_CAMPAIGN_NO_CONNECTION",
        "ERR_CAMPAIGN_NO_MESSAGE",
        "ERR_NO_WAPP_FOUND",
        "ERR_WAPP_NO_WABA",
        "ERR_WAPP_TEMPLATES",
        "ERR_WAPP_TEMPLATE_MISSING",
        "ERR_WAPP_TEMPLATE_PARAMS",
        "ERR_WAPP_TEMPLATE_PAUSED",
        "ERR_WAPP_TOKEN_EXPIRED",
        "ERR_PLAN_CAMPAIGN_LIMIT",
      ],
      ...gated,
      body: campaignCreateSchema,
      status: 201,
      response: campaignSchema,
    },
    ({ auth, body }) => campaigns.create(auth, body),
  );
  r.put(
    "/campaigns/:id",
    {
      errors: [
        "ERR_CAMPAIGN_CONTACT_LIST_NOT_FOUND",
        "ERR_CAMPAIGN_FILE_LIST_NOT_FOUND",
        "ERR_CAMPAIGN_NOT_EDITABLE",
        "ERR_CAMPAIGN_NOT_FOUND",
        "ERR_CAMPAIGN_NO_AUDIENCE",
        "ERR_CAMPAIGN_NO_CONFIRMATION_MESSAGE",
        "ERR_CAMPAIGN_NO_CONNECTION",
        "ERR_CAMPAIGN_NO_MESSAGE",
        "ERR_NO_WAPP_FOUND",
        "ERR_WAPP_NO_WABA",
        "ERR_WAPP_TEMPLATES",
        "ERR_WAPP_TEMPLATE_MISSING",
        "ERR_WAPP_TEMPLATE_PARAMS",
        "ERR_WAPP_TEMPLATE_PAUSED",
        "ERR_WAPP_TOKEN_EXPIRED",
      ],
      ...answersCampaign,
      body: campaignUpdateSchema,
    },
    ({ auth, params, body }) => campaigns.update(auth, params.id, body),
  );
  r.delete(
    "/campaigns/:id",
    { errors: ["ERR_CAMPAIGN_NOT_FOUND"], ...byId, status: 204 },
    ({ auth, params }) => campaigns.remove(auth, params.id),
  );
  r.post(
    "/campaigns/:id/cancel",
    { ...answersCampaign, errors: ["ERR_CAMPAIGN_CANNOT_CANCEL", "ERR_CAMPAIGN_NOT_FOUND"] },
    ({ auth, params }) => campaigns.cancel(auth, params.id),
  );
  r.post(
    "/campaigns/:id/restart",
    { ...answersCampaign, errors: ["ERR_CAMPAIGN_CANNOT_RESTART", "ERR_CAMPAIGN_NOT_FOUND"] },
    ({ auth, params }) => campaigns.restart(auth, params.id),
  );
  r.post(
    "/campaigns/:id/media-upload",
    {
      errors: ["ERR_CAMPAIGN_NOT_FOUND"],
      ...answersCampaign,
      bodyDoc: uploadForm,
      consumes: ["multipart/form-data"],
    },
    ({ auth, params }, req) => campaigns.attachMedia(auth, params.id, () => readSingleUpload(req)),
  );
  r.delete(
    "/campaigns/:id/media-upload",
    { ...answersCampaign, errors: ["ERR_CAMPAIGN_NOT_FOUND"] },
    ({ auth, params }) => campaigns.removeMedia(auth, params.id),
  );
  r.get(
    "/campaigns/:id/report",
    {
      errors: ["ERR_CAMPAIGN_NOT_FOUND"],
      ...byId,
      query: campaignReportQuerySchema,
      response: campaignReportSchema,
    },
    ({ auth, params, query }) => report.report(auth, params.id, query),
  );
  r.get(
    "/campaigns/:id/report.csv",
    { errors: ["ERR_CAMPAIGN_NOT_FOUND"], ...byId, produces: "text/csv" },
    async ({ auth, params }, req, reply) => {
      const file = await report.csv(auth, params.id, langOf(req));
      return reply
        .type("text/csv; charset=utf-8")
        .header("content-disposition", `attachment; filename="${file.name}"`)
        .header("cache-control", "no-store")
        .send(file.body);
    },
  );
  r.get("/campaign-settings", { ...gated, response: settingRows }, ({ auth }) => settings.list(auth));
  r.post(
    "/campaign-settings",
    { ...gated, body: campaignSettingsBodySchema, response: settingRows },
    ({ auth, body }) => settings.save(auth, body.settings),
  );
}

/** The sender's durable jobs (sender.ts, answers.ts). */
export function registerCampaignJobs(jobs: JobRunner, deps: SenderDeps) {
  jobs.register(q.START_CAMPAIGN_JOB, startCampaignJob(deps));
  jobs.register(q.STEP_CAMPAIGN_JOB, stepCampaignJob(deps));
  jobs.register(q.CONFIRM_CAMPAIGN_JOB, confirmCampaignJob(deps));
  jobs.register(q.CONFIRM_TIMEOUT_CAMPAIGN_JOB, confirmTimeoutJob(deps));
}

/** The campaigns module: the pages' calls, the settings, the report and the sender's jobs. */
export async function campaignsModule(
  parent: FastifyInstance,
  deps: Omit<CampaignsDeps, "poke"> & {
    jobs: JobRunner;
    sessions: SessionManager;
    maxFileBytes: number;
    random?: Random;
  },
): Promise<CampaignsService> {
  const poke = () => deps.jobs.poke();
  registerCampaignJobs(deps.jobs, {
    db: deps.db,
    bus: deps.bus,
    now: deps.now,
    random: deps.random ?? Math.random,
    sessions: deps.sessions,
    poke,
  });
  const campaigns = createCampaignsService({ ...deps, poke });
  const report = createCampaignReport(deps);
  const settings = createCampaignSettingsService(deps);
  await parent.register(async (app) => {
    await app.register(multipart, {
      limits: { fileSize: deps.maxFileBytes, files: 1, fields: 10 },
      throwFileSizeLimit: true,
    });
    campaignsRoutes(app, campaigns, report, settings);
  });
  return campaigns;
}

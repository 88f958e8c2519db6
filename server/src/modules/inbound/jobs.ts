import type { JobRunner } from "../../jobs/runner.js";
import { REJECT_CALL_JOB, rejectCallJob } from "./calls.js";
import { CLOUD_WEBHOOK_JOB, cloudWebhookJob } from "./cloudWebhook.js";
import { INBOUND_MEDIA_JOB, inboundMediaJob } from "./mediaJob.js";

/**
 * The inbound pipeline's durable jobs: a customer's file downloaded after its message is stored, a
 * Cloud API webhook delivery processed as received, a call declined when calls are disabled.
 */
export function registerInboundJobs(
  jobs: Pick<JobRunner, "register">,
  deps: Parameters<typeof inboundMediaJob>[0] &
    Parameters<typeof cloudWebhookJob>[0] &
    Parameters<typeof rejectCallJob>[0],
) {
  jobs.register(INBOUND_MEDIA_JOB, inboundMediaJob(deps));
  jobs.register(CLOUD_WEBHOOK_JOB, cloudWebhookJob(deps));
  jobs.register(REJECT_CALL_JOB, rejectCallJob(deps));
}

import type { JobRunner } from "../../jobs/runner.js";
import { CHANNEL_ACTION_JOB, channelActionJob } from "./actions.js";
import { SEND_MESSAGE_JOB, sendMessageJob } from "./outbound.js";

/**
 * The messages module's durable jobs: a queued message sent on its connection's lane, and the
 * other things asked of WhatsApp (read receipts, typing, a reaction, an edit, a delete for everyone).
 */
export function registerMessageJobs(
  jobs: Pick<JobRunner, "register">,
  deps: Parameters<typeof sendMessageJob>[0] & Parameters<typeof channelActionJob>[0],
) {
  jobs.register(SEND_MESSAGE_JOB, sendMessageJob(deps));
  jobs.register(CHANNEL_ACTION_JOB, channelActionJob(deps));
}

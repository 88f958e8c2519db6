import { errorMessage, isErrorCode } from "@atende/contracts";
import type { Db } from "../../db/client.js";
import type { Follower } from "../../events/bus.js";
import { type JobHandler, type JobRunner, enqueueJob } from "../../jobs/runner.js";
import type { Mailer } from "../mail/mailer.js";
import { adminEmails, findWhatsappRow } from "./queries.js";

export const CONNECTION_ALERT_MAIL_JOB = "connection-alert-mail";
/** SMTP trouble is retried with the runner's backoff, as the account mails are. */
const MAIL_ATTEMPTS = 8;

/**
 * A connection that needs a person (`whatsapp.alert`: a Cloud API token Meta refused, an account
 * Meta disabled or restricted) mails the company's admins; the side menu's red mark and the
 * connections page already show its status from `whatsappSession`. The mail's job is written in the
 * transaction that raised the alert, once per connection and reason while it waits.
 */
export function connectionAlertWithin(poke: () => void): Follower {
  return async (tx, events) => {
    let queued = false;
    for (const event of events) {
      if (event.type !== "whatsapp.alert") continue;
      const id = await enqueueJob(tx, {
        type: CONNECTION_ALERT_MAIL_JOB,
        companyId: event.companyId,
        payload: {
          whatsappId: event.whatsappId,
          reason: event.reason,
          ...(event.detail ? { detail: event.detail } : {}),
        },
        dedupeKey: `connection-alert:${event.whatsappId}:${event.reason}`,
        maxAttempts: MAIL_ATTEMPTS,
      });
      queued ||= id !== null;
    }
    return queued ? poke : undefined;
  };
}

/** The alert's mail to each admin of the company: which connection, why, and where to fix it. */
export function connectionAlertMailJob(deps: {
  db: Db;
  mailer: Pick<Mailer, "send">;
}): JobHandler<typeof CONNECTION_ALERT_MAIL_JOB> {
  return {
    async run(job) {
      const companyId = job.companyId!;
      const { whatsappId, reason, detail } = job.payload;
      const connection = await findWhatsappRow(deps.db, companyId, whatsappId);
      if (!connection) return; // deleted since: nothing to fix
      const why = isErrorCode(reason) ? errorMessage(reason, "pt") : reason;
      const text = [
        `A conexão "${connection.name}" precisa de atenção: ${why}`,
        detail ? `Detalhe da Meta: ${detail}` : "",
        "Abra Conexões no Atende para corrigir.",
      ]
        .filter(Boolean)
        .join("\n\n");
      const html = text
        .split("\n\n")
        .map((p) => `<p>${escapeHtml(p)}</p>`)
        .join("");
      for (const to of await adminEmails(deps.db, companyId))
        await deps.mailer.send({
          to,
          subject: `Conexão "${connection.name}" precisa de atenção`,
          text,
          html,
        });
    },
  };
}

export function registerConnectionAlertJobs(
  jobs: Pick<JobRunner, "register">,
  deps: Parameters<typeof connectionAlertMailJob>[0],
) {
  jobs.register(CONNECTION_ALERT_MAIL_JOB, connectionAlertMailJob(deps));
}

function escapeHtml(s: string) {
  return s.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!,
  );
}

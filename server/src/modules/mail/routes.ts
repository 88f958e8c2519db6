import type { FastifyInstance } from "fastify";
import { type MailOutboxDTO, mailOutboxSchema } from "@atende/contracts";
import type { Db } from "../../db/client.js";
import { routes } from "../../http/route.js";
import type { Mailer } from "./mailer.js";
import { listOutbox } from "./queries.js";

/** The dev outbox, for the super user alone: it holds codes that set passwords. */
export function mailRoutes(app: FastifyInstance, deps: { db: Db; mailer: Mailer }) {
  routes(app).get(
    "/mail/outbox",
    {
      access: "super",
      summary: "The mails kept without SMTP_URL (development), newest first",
      response: mailOutboxSchema,
    },
    async (): Promise<MailOutboxDTO> => ({
      mode: deps.mailer.mode,
      mails: (await listOutbox(deps.db)).map((m) => ({
        id: m.id,
        to: m.to,
        subject: m.subject,
        text: m.text,
        html: m.html,
        createdAt: m.createdAt.toISOString(),
      })),
    }),
  );
}

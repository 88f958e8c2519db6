import crypto from "node:crypto";
import {
  type DialogflowTestAnswer,
  type DialogflowTestInput,
  LIMITS,
  type ListQuery,
  type QueueIntegrationDTO,
  type QueueIntegrationEvent,
  type QueueIntegrationInput,
  type QueueIntegrationsPage,
} from "@atende/contracts";
import type { Deps } from "../../../deps.js";
import { inTransaction } from "../../../events/bus.js";
import type { AuthContext } from "../../../http/auth.js";
import { AppError, uniqueOr } from "../../../http/errors.js";
import type { Outbound } from "../../../lib/outbound.js";
import type { SecretBox } from "../../../lib/secretBox.js";
import { type DialogflowClient, DialogflowError, parseServiceAccount, testSessionId } from "./dialogflow.js";
import { botPolicy } from "./policy.js";
import { presentIntegration } from "./present.js";
import * as q from "./queries.js";
import { INTEGRATION_SECRET_PURPOSE as PURPOSE, openIntegrationSecrets } from "./sealing.js";

export type QueueIntegrationsDeps = Pick<Deps, "db" | "bus" | "now"> & {
  secrets: SecretBox;
  dialogflow: DialogflowClient;
  /** The app's one guarded client (its save-time URL check). */
  outbound: Outbound;
};

export function createQueueIntegrationsService({
  db,
  bus,
  now,
  secrets,
  dialogflow,
  outbound,
}: QueueIntegrationsDeps) {
  const present = (row: q.QueueIntegrationRow) =>
    presentIntegration(row, openIntegrationSecrets(secrets, row));

  async function rowOf(actor: AuthContext, id: number): Promise<q.QueueIntegrationRow> {
    const row = await q.findIntegrationRow(db, actor.companyId, id);
    if (!row) throw new AppError("ERR_NO_QUEUE_INTEGRATION_FOUND");
    botPolicy.manage(actor);
    return row;
  }

  /** A new secret is sealed; a blank one keeps what is stored (the dialog never receives it). */
  const sealed = (purpose: string, plain: string, stored: string | null) =>
    plain ? secrets.seal(purpose, plain) : stored;

  /**
   * The bot's URL must be one the server may call (no SSRF, issue 32), by the rule every saved URL
   * follows (Outbound.accept): not an http(s) URL → ERR_VALIDATION; an internal address, or a name
   * that resolves now to one → ERR_INTEGRATION_URL_FORBIDDEN; a name that does not resolve yet is
   * kept, the guarded client judging every address again on each call.
   */
  async function assertCallable(urlN8N: string) {
    if (!urlN8N) return;
    await outbound.accept(
      urlN8N,
      { invalid: "ERR_VALIDATION", forbidden: "ERR_INTEGRATION_URL_FORBIDDEN" } as const,
      (code) => new AppError(code),
    );
  }

  /** The columns from the dialog's body; `stored` is the row being edited. */
  function values(input: QueueIntegrationInput, stored?: q.QueueIntegrationRow) {
    if (input.jsonContent) parseServiceAccount(input.jsonContent);
    const jsonContentEnc = sealed(PURPOSE.jsonContent, input.jsonContent, stored?.jsonContentEnc ?? null);
    if (input.type === "dialogflow" && !jsonContentEnc) throw new AppError("ERR_DIALOGFLOW_JSON_REQUIRED");
    return {
      type: input.type,
      name: input.name,
      projectName: input.projectName,
      jsonContentEnc,
      language: input.language,
      urlN8N: input.urlN8N,
      typebotSlug: input.typebotSlug,
      typebotExpires: input.typebotExpires,
      typebotDelayMessage: input.typebotDelayMessage,
      typebotKeywordFinish: input.typebotKeywordFinish,
      typebotKeywordRestart: input.typebotKeywordRestart,
      typebotUnknownMessage: input.typebotUnknownMessage,
      typebotRestartMessage: input.typebotRestartMessage,
      authTokenEnc: sealed(PURPOSE.authToken, input.authToken, stored?.authTokenEnc ?? null),
      // Every integration can sign what it sends: one is made when the admin gives none.
      signingSecretEnc: sealed(
        PURPOSE.signingSecret,
        input.signingSecret || (stored?.signingSecretEnc ? "" : crypto.randomBytes(32).toString("base64url")),
        stored?.signingSecretEnc ?? null,
      ),
      updatedAt: now(),
    };
  }

  async function save(
    companyId: number,
    event: (dto: QueueIntegrationDTO) => QueueIntegrationEvent,
    write: (tx: Parameters<Parameters<typeof inTransaction>[2]>[0]) => Promise<q.QueueIntegrationRow | null>,
  ): Promise<QueueIntegrationDTO> {
    return uniqueOr("ERR_QUEUE_INTEGRATION_NAME_TAKEN", () =>
      inTransaction(db, bus, async (tx, raise) => {
        const row = await write(tx);
        if (!row) throw new AppError("ERR_NO_QUEUE_INTEGRATION_FOUND"); // deleted meanwhile
        const dto = present(row);
        raise({ type: "queueIntegration.changed", companyId, payload: event(dto) });
        return dto;
      }),
    );
  }

  return {
    async page(actor: AuthContext, query: ListQuery): Promise<QueueIntegrationsPage> {
      const found = await q.pageIntegrationRows(db, actor.companyId, { ...query, pageSize: LIMITS.pageSize });
      return { queueIntegrations: found.rows.map(present), count: found.count, hasMore: found.hasMore };
    },

    async get(actor: AuthContext, id: number): Promise<QueueIntegrationDTO> {
      return present(await rowOf(actor, id));
    },

    async create(actor: AuthContext, input: QueueIntegrationInput): Promise<QueueIntegrationDTO> {
      const fields = values(input);
      await assertCallable(input.urlN8N);
      return save(
        actor.companyId,
        (queueIntegration) => ({ action: "create", queueIntegration }),
        (tx) => q.insertIntegration(tx, actor.companyId, { ...fields, createdAt: now() }),
      );
    },

    async update(actor: AuthContext, id: number, input: QueueIntegrationInput): Promise<QueueIntegrationDTO> {
      const fields = values(input, await rowOf(actor, id));
      await assertCallable(input.urlN8N);
      return save(
        actor.companyId,
        (queueIntegration) => ({ action: "update", queueIntegration }),
        (tx) => q.updateIntegration(tx, actor.companyId, id, fields),
      );
    },

    async remove(actor: AuthContext, id: number): Promise<void> {
      await rowOf(actor, id);
      await inTransaction(db, bus, async (tx, raise) => {
        if (!(await q.deleteIntegration(tx, actor.companyId, id)))
          throw new AppError("ERR_NO_QUEUE_INTEGRATION_FOUND");
        raise({
          type: "queueIntegration.changed",
          companyId: actor.companyId,
          payload: { action: "delete", integrationId: id },
        });
      });
    },

    /**
     * The dialog's Test: says hello to the agent with the given service account (or, from an edit
     * dialog whose JSON field was left blank, the stored one) and answers what Dialogflow replied.
     */
    async testSession(actor: AuthContext, input: DialogflowTestInput): Promise<DialogflowTestAnswer> {
      let json = input.jsonContent;
      if (!json && input.id !== undefined)
        json = openIntegrationSecrets(secrets, await rowOf(actor, input.id)).jsonContent ?? "";
      if (!json) throw new AppError("ERR_DIALOGFLOW_JSON_REQUIRED");
      const account = parseServiceAccount(json);
      const projectId = input.projectName || account.project_id || "";
      if (!projectId) throw new AppError("ERR_DIALOGFLOW_JSON_INVALID");
      try {
        const r = await dialogflow.detectIntent(account, projectId, testSessionId(), "Olá", input.language);
        return { ok: true, fulfillmentText: r.fulfillmentText, intent: r.intent };
      } catch (err) {
        if (err instanceof DialogflowError)
          throw new AppError("ERR_DIALOGFLOW_TEST_FAILED", { detail: err.message });
        throw err;
      }
    },
  };
}
export type QueueIntegrationsService = ReturnType<typeof createQueueIntegrationsService>;

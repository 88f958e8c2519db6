import {
  isErrorCode,
  type PairingCodeDTO,
  type WhatsappDTO,
  type WhatsappDetailDTO,
  type WhatsappSaveInput,
  type WhatsappTokenDTO,
} from "@atende/contracts";
import { ChannelError } from "../../channels/provider.js";
import type { SessionManager } from "../../channels/sessions.js";
import type { Deps } from "../../deps.js";
import { inTransaction } from "../../events/bus.js";
import type { AuthContext } from "../../http/auth.js";
import { AppError } from "../../http/errors.js";
import { isUniqueViolationOf } from "../../db/errors.js";
import type { SecretBox } from "../../lib/secretBox.js";
import { requirePlanForLinks } from "../../http/plan.js";
import { requireOwnBotLinks } from "../bots/links.js";
import { lockCompany } from "../plans/queries.js";
import { requirePlanRoom } from "../plans/limits.js";
import { companyQueueIds } from "../queues/queries.js";
import { whatsappPolicy } from "./policy.js";
import { presentWhatsappDetail } from "./present.js";
import * as q from "./queries.js";
import { findWhatsappRow, loadWhatsapp, queuesOfWhatsapps } from "./queries.js";
import { connectionTokenHash, newConnectionToken, storedToken } from "./tokens.js";

type WhatsappsDeps = Pick<Deps, "db" | "bus" | "now" | "config"> & {
  sessions: SessionManager;
  secrets: SecretBox;
};

export function createWhatsappsService({ db, bus, now, config, sessions, secrets }: WhatsappsDeps) {
  async function detail(companyId: number, id: number): Promise<WhatsappDetailDTO> {
    const row = await findWhatsappRow(db, companyId, id);
    if (!row) throw new AppError("ERR_NO_WAPP_FOUND");
    const queues = (await queuesOfWhatsapps(db, companyId, [id])).get(id) ?? [];
    return presentWhatsappDetail(row, queues, config.PUBLIC_URL || `http://localhost:${config.PORT}`);
  }

  /**
   * The dialog's token field: blank, or the connection's own token sent back (a client keeping the
   * rotation's answer), changes nothing; any other value is refused, since only the server makes
   * tokens. Nothing here looks at another connection's token.
   */
  function checkTokenField(token: string, current?: { tokenHash: string | null }) {
    if (!token) return;
    if (current?.tokenHash && connectionTokenHash(secrets, token) === current.tokenHash) return;
    throw new AppError("ERR_WAPP_TOKEN_NOT_SETTABLE");
  }

  async function checkInput(
    companyId: number,
    input: WhatsappSaveInput,
    current?: { id: number; promptId: number | null; integrationId: number | null },
  ) {
    const exceptId = current?.id;
    await requirePlanForLinks(db, companyId, input, current);
    await requireOwnBotLinks(db, companyId, input);
    const queueIds = [...new Set(input.queueIds)];
    if ((await companyQueueIds(db, companyId, queueIds)).length !== queueIds.length)
      throw new AppError("ERR_NO_QUEUE_FOUND");
    if (
      input.transferQueueId &&
      (await companyQueueIds(db, companyId, [input.transferQueueId])).length !== 1
    ) {
      throw new AppError("ERR_NO_QUEUE_FOUND");
    }
    if (queueIds.length > 1 && !input.greetingMessage.trim())
      throw new AppError("ERR_WAPP_GREETING_REQUIRED");
    if (await q.nameTaken(db, companyId, input.name, exceptId)) throw new AppError("ERR_WAPP_NAME_TAKEN");
    return queueIds;
  }

  function fields(input: WhatsappSaveInput, previousConfig: Record<string, string> = {}) {
    const cloud = input.cloud;
    const providerConfig = cloud
      ? {
          phoneNumberId: cloud.phoneNumberId,
          wabaId: cloud.wabaId,
          verifyToken: cloud.verifyToken,
          accessToken: cloud.accessToken || previousConfig.accessToken || "",
          appSecret: cloud.appSecret || previousConfig.appSecret || "",
        }
      : previousConfig;
    return {
      name: input.name,
      provider: input.provider,
      greetingMessage: input.greetingMessage,
      complationMessage: input.complationMessage,
      outOfHoursMessage: input.outOfHoursMessage,
      ratingMessage: input.ratingMessage,
      expiresInactiveMessage: input.expiresInactiveMessage,
      expiresTicket: input.expiresTicket,
      timeUseBotQueues: input.timeUseBotQueues,
      maxUseBotQueues: input.maxUseBotQueues,
      transferQueueId: input.transferQueueId,
      timeToTransfer: input.timeToTransfer,
      promptId: input.promptId,
      integrationId: input.integrationId,
      schedules: input.schedules,
      providerConfig,
    };
  }

  /** Two saves racing for one name: the unique index decides, the loser hears 409. */
  async function withNameCheck<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      if (isUniqueViolationOf(err, ["whatsapps_company_name_uq"])) throw new AppError("ERR_WAPP_NAME_TAKEN");
      throw err;
    }
  }

  return {
    list(actor: AuthContext): Promise<WhatsappDTO[]> {
      return q.listWhatsapps(db, actor.companyId);
    },

    async get(actor: AuthContext, id: number): Promise<WhatsappDetailDTO> {
      const found = await detail(actor.companyId, id);
      whatsappPolicy.view(actor);
      return found;
    },

    /**
     * A new connection has no API token (no hash, hint ""): an admin makes one with rotateToken,
     * whose answer shows it, so no valid credential exists that nobody saw.
     */
    async create(actor: AuthContext, input: WhatsappSaveInput): Promise<WhatsappDetailDTO> {
      whatsappPolicy.create(actor);
      checkTokenField(input.token);
      const queueIds = await checkInput(actor.companyId, input);
      const id = await withNameCheck(() =>
        inTransaction(db, bus, async (tx, raise) => {
          await requirePlanRoom(tx, actor.companyId, "connections", () =>
            q.countWhatsapps(tx, actor.companyId),
          );
          const first = (await q.countWhatsapps(tx, actor.companyId)) === 0;
          const isDefault = input.isDefault || first;
          if (isDefault) await q.clearDefault(tx, actor.companyId);
          const row = await q.insertWhatsapp(tx, actor.companyId, {
            ...fields(input),
            isDefault,
            status: "OPENING",
            createdAt: now(),
            updatedAt: now(),
          });
          await q.setWhatsappQueues(tx, actor.companyId, row.id, queueIds);
          raise({
            type: "whatsapp.saved",
            companyId: actor.companyId,
            whatsapp: (await loadWhatsapp(tx, actor.companyId, row.id))!,
          });
          return row.id;
        }),
      );
      await sessions.tick();
      return detail(actor.companyId, id);
    },

    async update(actor: AuthContext, id: number, input: WhatsappSaveInput): Promise<WhatsappDetailDTO> {
      const current = await findWhatsappRow(db, actor.companyId, id);
      if (!current) throw new AppError("ERR_NO_WAPP_FOUND");
      whatsappPolicy.edit(actor);
      checkTokenField(input.token, current);
      const queueIds = await checkInput(actor.companyId, input, current);
      await withNameCheck(() =>
        inTransaction(db, bus, async (tx, raise) => {
          // One writer of the company's connections at a time, so the default stays exactly one.
          await lockCompany(tx, actor.companyId);
          const fresh = (await findWhatsappRow(tx, actor.companyId, id))!;
          if (fresh.isDefault && !input.isDefault && !(await q.otherDefault(tx, actor.companyId, id))) {
            throw new AppError("ERR_NO_OTHER_WHATSAPP");
          }
          if (input.isDefault && !fresh.isDefault) await q.clearDefault(tx, actor.companyId);
          await q.updateWhatsapp(tx, actor.companyId, id, {
            ...fields(input, current.providerConfig),
            isDefault: input.isDefault,
            updatedAt: now(),
          });
          await q.setWhatsappQueues(tx, actor.companyId, id, queueIds);
          raise({
            type: "whatsapp.saved",
            companyId: actor.companyId,
            whatsapp: (await loadWhatsapp(tx, actor.companyId, id))!,
          });
        }),
      );
      const providerChanged = current.provider !== input.provider;
      const next = fields(input, current.providerConfig).providerConfig;
      const keys = new Set([...Object.keys(next), ...Object.keys(current.providerConfig)]);
      const cloudChanged = [...keys].some((k) => (next[k] ?? "") !== (current.providerConfig[k] ?? ""));
      if (providerChanged || cloudChanged) await sessions.restart(actor.companyId, id);
      return detail(actor.companyId, id);
    },

    /**
     * A new API token for the connection, answered this once; the one it replaces stops working at
     * once (the messages API looks every call's token up afresh), a clear one from before the hashes
     * too (storedToken drops it, so the start-up step cannot bring it back).
     */
    async rotateToken(actor: AuthContext, id: number): Promise<WhatsappTokenDTO> {
      if (!(await findWhatsappRow(db, actor.companyId, id))) throw new AppError("ERR_NO_WAPP_FOUND");
      whatsappPolicy.edit(actor);
      const token = newConnectionToken();
      const stored = storedToken(secrets, token);
      await inTransaction(db, bus, async (tx) => {
        if (!(await findWhatsappRow(tx, actor.companyId, id))) throw new AppError("ERR_NO_WAPP_FOUND");
        await q.updateWhatsapp(tx, actor.companyId, id, stored);
      });
      return { token, tokenHint: stored.tokenHint };
    },

    async remove(actor: AuthContext, id: number): Promise<void> {
      const current = await findWhatsappRow(db, actor.companyId, id);
      if (!current) throw new AppError("ERR_NO_WAPP_FOUND");
      whatsappPolicy.edit(actor);
      await sessions.disconnect(actor.companyId, id);
      await inTransaction(db, bus, async (tx, raise) => {
        await lockCompany(tx, actor.companyId);
        const fresh = await findWhatsappRow(tx, actor.companyId, id);
        if (!fresh) return; // deleted meanwhile by someone else
        await q.deleteWhatsapp(tx, actor.companyId, id);
        if (fresh.isDefault) {
          // The company keeps a default connection while it has any.
          const next = await q.firstOtherWhatsapp(tx, actor.companyId, id);
          if (next) {
            await q.updateWhatsapp(tx, actor.companyId, next.id, { isDefault: true });
            raise({
              type: "whatsapp.saved",
              companyId: actor.companyId,
              whatsapp: (await loadWhatsapp(tx, actor.companyId, next.id))!,
            });
          }
        }
        raise({ type: "whatsapp.deleted", companyId: actor.companyId, whatsappId: id });
      });
    },

    /** Start or restart the session; `fresh` forgets the pairing first, for a new QR code. */
    async startSession(actor: AuthContext, id: number, fresh: boolean): Promise<void> {
      if (!(await findWhatsappRow(db, actor.companyId, id))) throw new AppError("ERR_NO_WAPP_FOUND");
      whatsappPolicy.runSession(actor);
      if (fresh) await sessions.disconnect(actor.companyId, id);
      await sessions.restart(actor.companyId, id);
    },

    /**
     * A code that pairs the connection's phone instead of the QR code, while the connection waits
     * for a phone (qrcode, or still OPENING).
     */
    async pairingCode(actor: AuthContext, id: number, number: string): Promise<PairingCodeDTO> {
      const row = await findWhatsappRow(db, actor.companyId, id);
      if (!row) throw new AppError("ERR_NO_WAPP_FOUND");
      whatsappPolicy.runSession(actor);
      if (row.status !== "qrcode" && row.status !== "OPENING") {
        throw new AppError("ERR_WAPP_PAIRING_NOT_WAITING");
      }
      try {
        const answer = await sessions.pairingCode(actor.companyId, id, number);
        if (answer === null) throw new AppError("ERR_WAPP_NOT_INITIALIZED");
        if (answer === "unavailable") throw new AppError("ERR_WAPP_PAIRING_UNAVAILABLE");
        return answer;
      } catch (err) {
        if (!(err instanceof ChannelError)) throw err;
        throw new AppError(isErrorCode(err.code) ? err.code : "ERR_WAPP_PAIRING_FAILED");
      }
    },

    async disconnectSession(actor: AuthContext, id: number): Promise<void> {
      if (!(await findWhatsappRow(db, actor.companyId, id))) throw new AppError("ERR_NO_WAPP_FOUND");
      whatsappPolicy.runSession(actor);
      await sessions.disconnect(actor.companyId, id);
    },

    async restartAll(actor: AuthContext): Promise<void> {
      whatsappPolicy.runSession(actor);
      for (const id of await q.activeWhatsappIds(db, actor.companyId))
        await sessions.restart(actor.companyId, id);
    },
  };
}

export type WhatsappsService = ReturnType<typeof createWhatsappsService>;

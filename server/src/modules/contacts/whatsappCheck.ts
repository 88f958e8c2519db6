import type { FastifyBaseLogger } from "fastify";
import { ChannelError } from "../../channels/provider.js";
import type { SessionManager } from "../../channels/sessions.js";
import type { Db } from "../../db/client.js";
import { AppError } from "../../http/errors.js";
import { connectedConnectionIds } from "./queries.js";

export type NumberCheck = "onWhatsapp" | "unchecked";

/**
 * Asks WhatsApp whether a number has an account, through a CONNECTED connection of the company
 * (the default one first) whose session this instance runs. Throws ERR_WAPP_INVALID_CONTACT when
 * WhatsApp says no, ERR_WAPP_CHECK_CONTACT when the provider failed to answer.
 *
 * With no connected connection there is nobody to ask: the contact is saved unchecked (a company
 * may add contacts before pairing a phone; the first send tells). The same holds, for now, when
 * the only connected sessions run on another instance of a cluster.
 */
export function createWhatsappCheck(deps: {
  db: Db;
  sessions: Pick<SessionManager, "session">;
  log?: FastifyBaseLogger;
}) {
  return async function checkOnWhatsapp(companyId: number, number: string): Promise<NumberCheck> {
    const connected = await connectedConnectionIds(deps.db, companyId);
    for (const { id } of connected) {
      const session = deps.sessions.session(id);
      if (!session) continue;
      let address;
      try {
        address = await session.checkNumber(number);
      } catch (err) {
        if (err instanceof ChannelError && err.code === "ERR_WAPP_NOT_INITIALIZED") continue;
        deps.log?.warn({ err, whatsappId: id }, "number check failed");
        throw new AppError("ERR_WAPP_CHECK_CONTACT");
      }
      if (!address) throw new AppError("ERR_WAPP_INVALID_CONTACT", { invalido: true });
      return "onWhatsapp";
    }
    if (connected.length > 0)
      deps.log?.info({ companyId }, "no local session to check a number on WhatsApp: saved unchecked");
    return "unchecked";
  };
}

export type WhatsappCheck = ReturnType<typeof createWhatsappCheck>;

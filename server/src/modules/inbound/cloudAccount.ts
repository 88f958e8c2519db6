import type { Db } from "../../db/client.js";
import type { whatsapps } from "../../db/schema/index.js";
import { type EventBus, inTransaction } from "../../events/bus.js";
import type { CloudAccountEvent } from "../../channels/cloud/accountEvents.js";
import { normalizeNumber } from "../../channels/numbers.js";
import { connectionInfoOf } from "../../channels/provider.js";
import type { SessionManager } from "../../channels/sessions.js";
import type { Inbound } from "../../channels/sink.js";
import { forgetTemplates, setTemplateStatus } from "../cloudTemplates/queries.js";

type WhatsappRow = typeof whatsapps.$inferSelect;

/**
 * What Meta says of a WhatsApp Business account, applied to the app's connections on it (its WABA,
 * and its number when the change names one):
 * - disabled or deleted: the connection goes DISCONNECTED with ERR_WAPP_ACCOUNT_DISABLED (its
 *   session stops; the admins are mailed through the connection event's reason);
 * - restricted, a violation, a disabling scheduled: the admins are mailed (ERR_WAPP_ACCOUNT_RESTRICTED)
 *   and the status stays: Meta still delivers the customers' messages and the replies to them, which
 *   a DISCONNECTED connection would stop;
 * - reinstated: started again (OPENING), its token checked before CONNECTED;
 * - a template's new status is stored for every connection of the WABA (only APPROVED ones are
 *   offered and sent); a template no connection has stored yet (newly approved) makes their lists be
 *   read again from Graph.
 */
export async function applyAccountEvents(
  deps: {
    db: Db;
    bus: EventBus;
    inbound: Pick<Inbound, "handle">;
    sessions: Pick<SessionManager, "restart">;
    now: () => Date;
  },
  app: WhatsappRow[],
  events: CloudAccountEvent[],
): Promise<void> {
  for (const event of events) {
    const ofWaba = app.filter((c) => c.providerConfig.wabaId === event.wabaId);
    if (event.kind === "template") {
      const ids = ofWaba.map((c) => c.id);
      const changed = await setTemplateStatus(deps.db, ids, event.wabaId, event, event.status, deps.now());
      if (changed === 0 && event.status === "APPROVED") await forgetTemplates(deps.db, ids, event.wabaId);
      continue;
    }
    const number = event.phoneNumber ? normalizeNumber(event.phoneNumber) : "";
    const named = number ? ofWaba.filter((c) => normalizeNumber(c.number) === number) : [];
    for (const row of named.length ? named : ofWaba) {
      const connection = connectionInfoOf(row);
      if (event.action === "disable")
        await deps.inbound.handle(connection, {
          type: "connection",
          status: "DISCONNECTED",
          reason: "ERR_WAPP_ACCOUNT_DISABLED",
        });
      else if (event.action === "reinstate") await deps.sessions.restart(row.companyId, row.id);
      else
        await inTransaction(deps.db, deps.bus, async (_tx, raise) =>
          raise({
            type: "whatsapp.alert",
            companyId: row.companyId,
            whatsappId: row.id,
            reason: "ERR_WAPP_ACCOUNT_RESTRICTED",
            detail: event.detail,
          }),
        );
    }
  }
}

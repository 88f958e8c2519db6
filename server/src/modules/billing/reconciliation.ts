import type { FastifyBaseLogger } from "fastify";
import type { Db } from "../../db/client.js";
import { type EventBus, inTransaction } from "../../events/bus.js";
import type { SecretBox } from "../../lib/secretBox.js";
import { billingSettings, gatewayNamed } from "./gateways/registry.js";
import * as q from "./queries.js";
import { settleCharge } from "./settle.js";

/** How many pending charges one run asks the gateway about (oldest checked first). */
const BATCH = 100;
/** A charge no longer valid this long ago is not asked about any more. */
const GIVE_UP_AFTER_MS = 2 * 86_400_000;

/**
 * Reconciliation: asks the gateway about every pending charge, so a lost webhook still settles its
 * invoice. Settling goes through the same once-only path as the webhook: the event key
 * `reconciled:<charge>` and the invoice's lock make it a no-op when the webhook won the race.
 * Answers how many invoices it settled.
 */
export async function reconcileCharges(deps: {
  db: Db;
  bus: EventBus;
  now: () => Date;
  asaasUrl: string;
  log: FastifyBaseLogger;
  secrets: SecretBox;
}): Promise<number> {
  const { db, bus, now, log, secrets } = deps;
  const settings = await billingSettings(db);
  // Only Asaas can be asked; a plain Pix key is confirmed by the super user.
  if (!settings.asaasApiKeyEnc) return 0;
  const gateway = gatewayNamed("asaas", settings, { asaasUrl: deps.asaasUrl, now, secrets });
  const at = now();
  const charges = (await q.pendingCharges(db, "asaas", BATCH)).filter(
    (c) => !c.expiresAt || c.expiresAt.getTime() > at.getTime() - GIVE_UP_AFTER_MS,
  );
  let settled = 0;
  for (const charge of charges) {
    try {
      const state = await gateway.fetchCharge(charge.externalId);
      if (!state?.paid) continue;
      const outcome = await inTransaction(db, bus, (tx, raise) =>
        settleCharge(tx, raise, {
          gateway: "asaas",
          externalId: charge.externalId,
          eventKey: `reconciled:${charge.externalId}`,
          eventType: `RECONCILED_${state.status}`,
          payload: state,
          at: now(),
        }),
      );
      if (outcome === "settled") settled++;
    } catch (err) {
      log.warn({ err, chargeId: charge.id }, "billing: reconciliation could not read a charge");
    }
  }
  // Checked: the next run starts with the ones not asked about for longest.
  await q.touchCharges(
    db,
    charges.map((c) => c.id),
    at,
  );
  return settled;
}

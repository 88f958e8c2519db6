import { type PaymentEventPayload, advanceDueDate, todayInZone } from "@atende/contracts";
import type { Tx } from "../../db/client.js";
import type { Raise } from "../../events/bus.js";
import * as q from "./queries.js";
import { presentInvoice, presentPaymentCompany } from "./present.js";

/**
 * Settling an invoice, the one place a payment moves a due date. Inside the caller's transaction,
 * with the company's row and the invoice's locked (in that order, everywhere): a second settlement
 * of the same invoice (the webhook replayed, the reconciliation racing it, the super user's click)
 * waits for the first and then finds it paid. Charges are written after both locks. The company's due date moves once, by its recurrence,
 * from the later of its current due date and today.
 */
export async function settleInvoice(
  tx: Tx,
  raise: Raise,
  companyId: number,
  invoiceId: number,
  how: { at: Date; paidVia: string; paidByUserId: number | null; chargeId?: number },
): Promise<"settled" | "alreadyPaid" | "missing"> {
  const locked = await q.lockCompanyAndInvoice(tx, companyId, invoiceId);
  if (!locked) return "missing";
  const { company, invoice } = locked;
  // The charge that brought the money is recorded paid even when the invoice already was.
  if (how.chargeId !== undefined) await q.markChargePaid(tx, companyId, how.chargeId, how.at);
  if (invoice.status === "paid") return "alreadyPaid";
  await q.markInvoicePaid(tx, companyId, invoiceId, {
    at: how.at,
    paidVia: how.paidVia,
    paidByUserId: how.paidByUserId,
  });
  await q.closeOtherCharges(tx, companyId, invoiceId, how.at);
  const today = todayInZone(how.at);
  const from = company.dueDate && company.dueDate > today ? company.dueDate : today;
  const moved = await q.setCompanyDueDate(
    tx,
    companyId,
    advanceDueDate(from, company.recurrence, today),
    how.at,
  );
  const paid = await q.findInvoice(tx, companyId, invoiceId);
  const payload: PaymentEventPayload = {
    action: "CONCLUIDA",
    company: presentPaymentCompany(moved),
    invoice: presentInvoice(paid!),
  };
  raise({ type: "company.saved", companyId });
  raise({ type: "payment.confirmed", companyId, payload });
  return "settled";
}

/**
 * A gateway says a charge was paid (webhook or reconciliation): the event is stored under its key
 * first, so the same event again changes nothing; then the charge and its invoice are settled once.
 */
export async function settleCharge(
  tx: Tx,
  raise: Raise,
  notice: {
    gateway: string;
    externalId: string;
    eventKey: string;
    eventType: string;
    payload: unknown;
    at: Date;
  },
): Promise<"settled" | "alreadyPaid" | "missing" | "replayed"> {
  const fresh = await q.storeEvent(tx, {
    gateway: notice.gateway,
    eventKey: notice.eventKey,
    eventType: notice.eventType,
    externalId: notice.externalId,
    payload: notice.payload,
    receivedAt: notice.at,
  });
  if (!fresh) return "replayed";
  // Not locked here: settleInvoice locks the company, then the invoice, then writes the charges,
  // the one order every settlement follows (a lock taken on the charge first could deadlock).
  const charge = await q.findChargeByExternalId(tx, notice.gateway, notice.externalId);
  if (!charge) return "missing";
  return settleInvoice(tx, raise, charge.companyId, charge.invoiceId, {
    at: notice.at,
    paidVia: notice.gateway,
    paidByUserId: null,
    chargeId: charge.id,
  });
}

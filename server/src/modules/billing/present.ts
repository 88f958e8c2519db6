import type { InvoiceDTO, PaymentEventPayload } from "@atende/contracts";
import type { companies } from "../../db/schema/index.js";
import type { InvoiceListRow, InvoiceRow } from "./queries.js";

/** An invoice as the /financeiro table reads it; the super user's answer names the company and who marked it paid. */
export function presentInvoice(row: InvoiceRow | InvoiceListRow, forSuper = false): InvoiceDTO {
  const dto: InvoiceDTO = {
    id: row.id,
    companyId: row.companyId,
    detail: row.detail,
    value: Number(row.value),
    dueDate: row.dueDate,
    status: row.status === "paid" ? "paid" : "open",
    paidAt: row.paidAt ? row.paidAt.toISOString() : null,
    paidVia: row.paidVia,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
  if (forSuper && "companyName" in row) {
    dto.company = { id: row.companyId, name: row.companyName };
    dto.paidBy = row.paidByUserId !== null ? { id: row.paidByUserId, name: row.paidByName ?? "" } : null;
  }
  return dto;
}

export function presentPaymentCompany(
  company: typeof companies.$inferSelect,
): PaymentEventPayload["company"] {
  return {
    id: company.id,
    name: company.name,
    dueDate: company.dueDate,
    recurrence: company.recurrence,
    status: company.status,
  };
}

import type { PaymentEventPayload } from "@atende/contracts";
import { useQueryClient } from "@tanstack/react-query";
import { subscriptionKeys, upsertInvoiceInLists } from "./billing";
import { useCompanyEvent } from "./SocketProvider";

/**
 * `company-{id}-payment`: a payment settled one of the company's invoices (CONCLUIDA). The invoice
 * shows paid in /financeiro, the subscription page reads its data again, and `onConfirmed` hears
 * the company with its new due date.
 */
export function usePaymentLive(onConfirmed: (payload: PaymentEventPayload) => void): void {
  const queryClient = useQueryClient();
  useCompanyEvent("payment", (payload) => {
    if (payload.action !== "CONCLUIDA") return;
    upsertInvoiceInLists(queryClient, payload.invoice);
    void queryClient.invalidateQueries({ queryKey: subscriptionKeys.info() });
    onConfirmed(payload);
  });
}

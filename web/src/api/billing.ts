import type {
  InvoiceDTO,
  InvoicesPage,
  PixChargeDTO,
  SubscriptionCheckoutInput,
  SubscriptionInfoDTO,
} from "@atende/contracts";
import type { QueryClient } from "@tanstack/react-query";
import { api } from "./http";
import { type PagedLists, upsertInLists } from "./pagedLists";

export const invoiceKeys = {
  all: ["invoices"] as const,
  /** /financeiro: every cached list, whatever the search text (the key's last part). */
  lists: () => [...invoiceKeys.all, "pages"] as const,
  list: (search: string) => [...invoiceKeys.lists(), search] as const,
};

export const subscriptionKeys = {
  /** GET /subscription: the company, its plan, the gateway and the invoice to pay. */
  info: () => ["subscription"] as const,
};

/**
 * GET /invoices: the company's invoices (every company's for the super user), newest first, in
 * pages with their count. (GET /invoices/all answers the same rows as a plain array, the shape the
 * Whaticket SaaS front end reads; this page wants the count and hasMore.)
 */
export function fetchInvoicesPage(
  search: string,
  pageNumber: number,
  signal?: AbortSignal,
): Promise<InvoicesPage> {
  return api.get<InvoicesPage>("/invoices", { query: { searchParam: search, pageNumber }, signal });
}

/** PUT /invoices/{id}: the super user confirms a payment by hand. */
export function markInvoicePaid(id: number): Promise<InvoiceDTO> {
  return api.put<InvoiceDTO>(`/invoices/${id}`, { status: "paid" });
}

export function fetchSubscriptionInfo(signal?: AbortSignal): Promise<SubscriptionInfoDTO> {
  return api.get<SubscriptionInfoDTO>("/subscription", { signal });
}

/** POST /subscription: the checkout's data and the invoice to pay; answers the Pix charge. */
export function createSubscription(input: SubscriptionCheckoutInput): Promise<PixChargeDTO> {
  return api.post<PixChargeDTO>("/subscription", input);
}

function matchesSearch(invoice: InvoiceDTO, search: string): boolean {
  const text = search.trim().toLowerCase();
  if (!text) return true;
  return (
    invoice.detail.toLowerCase().includes(text) ||
    (invoice.company?.name.toLowerCase().includes(text) ?? false) ||
    String(invoice.id) === text
  );
}

const invoiceLists: PagedLists<"invoices", InvoiceDTO> = {
  key: invoiceKeys.lists(),
  field: "invoices",
  matches: matchesSearch,
  order: (x, y) => y.id - x.id,
};

/**
 * An invoice saved (marked paid) or settled by a payment: replaced where listed. The super user's
 * rows carry the company and who paid; an event's copy may not, so those are kept from the row.
 */
export function upsertInvoiceInLists(queryClient: QueryClient, invoice: InvoiceDTO): void {
  const known = findListedInvoice(queryClient, invoice.id);
  upsertInLists(queryClient, invoiceLists, {
    ...invoice,
    company: invoice.company ?? known?.company,
    paidBy: invoice.paidBy ?? known?.paidBy,
  });
}

function findListedInvoice(queryClient: QueryClient, id: number): InvoiceDTO | undefined {
  for (const [, data] of queryClient.getQueriesData<{ pages: InvoicesPage[] }>({
    queryKey: invoiceKeys.lists(),
  })) {
    const found = data?.pages.flatMap((page) => page.invoices).find((row) => row.id === id);
    if (found) return found;
  }
  return undefined;
}

import type { InvoiceDTO } from "@atende/contracts";
import CreditCardIcon from "@mui/icons-material/CreditCardOutlined";
import { Box, Button } from "@mui/material";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router-dom";
import { fetchInvoicesPage, invoiceKeys, markInvoicePaid, upsertInvoiceInLists } from "../../api/billing";
import { useSessionUser } from "../../auth/AuthContext";
import { CheckoutDialog } from "../../components/CheckoutDialog/CheckoutDialog";
import { ConfirmationDialog } from "../../components/ConfirmationDialog";
import { ListPage } from "../../components/ListPage";
import { PastDueNotice } from "../../components/PastDueNotice";
import { useConfirmDelete } from "../../hooks/useConfirmDelete";
import { useSearchableList } from "../../hooks/useSearchableList";
import { formatBRL, formatDate } from "../../i18n/format";
import { InvoicesTable } from "./InvoicesTable";

/**
 * /financeiro: the company's invoices (the super user's: every company's), newest first, with
 * PAGAR on the unpaid ones (the checkout for that invoice). The super user confirms a payment by
 * hand (a plain Pix key has no gateway to tell).
 */
export function FinanceiroPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const user = useSessionUser();
  // The invoice the checkout pays: null for the company's open one (opened if there is none yet).
  const [paying, setPaying] = useState<InvoiceDTO | null | undefined>(undefined);
  const list = useSearchableList({
    queryKey: invoiceKeys.list,
    fetchPage: fetchInvoicesPage,
    itemsOf: (page) => page.invoices,
  });

  const marking = useConfirmDelete<InvoiceDTO>(async (invoice) => {
    const saved = await markInvoicePaid(invoice.id);
    upsertInvoiceInLists(queryClient, saved);
  }, t("billing.invoices.markedPaid"));
  const marked = marking.deleting;

  return (
    <ListPage
      title={t("billing.invoices.title")}
      count={list.count}
      searchLabel={t("billing.invoices.search")}
      searchText={list.searchText}
      onSearchChange={list.setSearchText}
      addLabel={t("billing.invoices.subscription")}
      addIcon={<CreditCardIcon />}
      onAdd={() => void navigate("/subscription")}
      dialogs={
        <>
          {paying !== undefined && <CheckoutDialog invoice={paying} onClose={() => setPaying(undefined)} />}
          <ConfirmationDialog
            {...marking.dialog}
            title={t("billing.invoices.markPaidTitle", { id: marked?.id ?? "" })}
            message={
              marked
                ? t("billing.invoices.markPaidConfirm", {
                    company: marked.company?.name ?? "",
                    value: formatBRL(marked.value, i18n.language),
                    date: formatDate(marked.dueDate),
                  })
                : ""
            }
          />
        </>
      }
    >
      <Box sx={{ px: 2, pt: 2, "&:empty": { display: "none" } }}>
        <PastDueNotice
          action={
            <Button
              color="error"
              variant="contained"
              size="small"
              sx={{ whiteSpace: "nowrap" }}
              onClick={() => setPaying(null)}
            >
              {t("billing.pastDue.payNow")}
            </Button>
          }
        />
      </Box>
      <InvoicesTable list={list} showCompany={user.super} onPay={setPaying} onMarkPaid={marking.ask} />
    </ListPage>
  );
}

import { invoiceDisplayStatus, mayPayInvoice, todayInZone, type InvoiceDTO } from "@atende/contracts";
import DoneAllIcon from "@mui/icons-material/DoneAll";
import {
  alpha,
  Button,
  Chip,
  IconButton,
  Stack,
  TableCell,
  TableRow,
  Tooltip,
  Typography,
} from "@mui/material";
import { useTranslation } from "react-i18next";
import { useSessionUser } from "../../auth/AuthContext";
import { InfiniteTable } from "../../components/InfiniteTable";
import type { SearchableList } from "../../hooks/useSearchableList";
import { formatBRL, formatDate } from "../../i18n/format";

interface InvoicesTableProps {
  list: SearchableList<InvoiceDTO>;
  /** The super user's view: every company's invoices, with the company's name and 'mark paid'. */
  showCompany: boolean;
  onPay(invoice: InvoiceDTO): void;
  onMarkPaid(invoice: InvoiceDTO): void;
}

const STATUS_COLOR = { paid: "success", overdue: "error", open: "warning" } as const;

/**
 * Id, Detalhes, Valor (BRL), Data Venc. (dd/MM/yyyy), Status ('Pago', 'Vencido' on a red row,
 * 'Em Aberto'), Ação (PAGAR on an unpaid invoice, PAGO once paid); the next page within 100 px of
 * the end. Overdue is counted in the company's time zone, as the server counts the due date.
 */
export function InvoicesTable({ list, showCompany, onPay, onMarkPaid }: InvoicesTableProps) {
  const { t, i18n } = useTranslation();
  const user = useSessionUser();
  const timezone = user.company.settings.find((s) => s.key === "timezone")?.value || undefined;
  const today = todayInZone(new Date(), timezone);

  return (
    <InfiniteTable
      list={list}
      aria-label={t("billing.invoices.title")}
      data-testid="invoices-table"
      columns={[
        { label: t("billing.invoices.columns.id"), align: "center" },
        ...(showCompany ? [{ label: t("billing.invoices.columns.company") }] : []),
        { label: t("billing.invoices.columns.detail") },
        { label: t("billing.invoices.columns.value"), align: "right" },
        { label: t("billing.invoices.columns.dueDate"), align: "center" },
        { label: t("billing.invoices.columns.status"), align: "center" },
        { label: t("billing.invoices.columns.action"), align: "center" },
      ]}
      empty={t(list.search !== "" ? "billing.invoices.emptySearch" : "billing.invoices.empty")}
      renderRow={(invoice) => {
        const status = invoiceDisplayStatus(invoice, today);
        // The super user pays only the platform company's own invoices; the others he marks paid.
        const payable = mayPayInvoice(invoice) && invoice.companyId === user.companyId;
        const paidNote =
          invoice.paidAt &&
          (invoice.paidBy
            ? t("billing.invoices.paidOnBy", { date: formatDate(invoice.paidAt), name: invoice.paidBy.name })
            : t("billing.invoices.paidOn", { date: formatDate(invoice.paidAt) }));
        return (
          <TableRow
            key={invoice.id}
            hover
            data-testid={`invoice-row-${invoice.id}`}
            data-status={status}
            sx={
              status === "overdue"
                ? {
                    bgcolor: (theme) =>
                      alpha(theme.palette.error.main, theme.palette.mode === "dark" ? 0.22 : 0.12),
                  }
                : undefined
            }
          >
            <TableCell align="center">{invoice.id}</TableCell>
            {showCompany && <TableCell>{invoice.company?.name ?? invoice.companyId}</TableCell>}
            <TableCell sx={{ maxWidth: 360 }}>
              <Typography variant="body2" noWrap title={invoice.detail}>
                {invoice.detail}
              </Typography>
            </TableCell>
            <TableCell align="right" sx={{ whiteSpace: "nowrap" }}>
              {formatBRL(invoice.value, i18n.language)}
            </TableCell>
            <TableCell align="center">{formatDate(invoice.dueDate)}</TableCell>
            <TableCell align="center">
              <Chip
                size="small"
                variant={status === "paid" ? "filled" : "outlined"}
                color={STATUS_COLOR[status]}
                label={t(`billing.invoices.status.${status}`)}
              />
            </TableCell>
            <TableCell align="center" sx={{ whiteSpace: "nowrap" }}>
              <Stack direction="row" spacing={1} sx={{ justifyContent: "center", alignItems: "center" }}>
                {mayPayInvoice(invoice) ? (
                  payable && (
                    <Button
                      size="small"
                      variant="contained"
                      color={status === "overdue" ? "error" : "primary"}
                      aria-label={t("billing.invoices.payInvoice", { id: invoice.id })}
                      onClick={() => onPay(invoice)}
                    >
                      {t("billing.invoices.pay")}
                    </Button>
                  )
                ) : (
                  <Tooltip title={paidNote ?? ""}>
                    {/* A disabled button shows no tooltip of its own: the span carries it. */}
                    <span>
                      <Button size="small" variant="outlined" disabled>
                        {t("billing.invoices.paidAction")}
                      </Button>
                    </span>
                  </Tooltip>
                )}
                {showCompany && mayPayInvoice(invoice) && (
                  <Tooltip title={t("billing.invoices.markPaid")}>
                    <IconButton
                      size="small"
                      color="success"
                      aria-label={`${t("billing.invoices.markPaid")} ${invoice.id}`}
                      onClick={() => onMarkPaid(invoice)}
                    >
                      <DoneAllIcon fontSize="small" />
                    </IconButton>
                  </Tooltip>
                )}
              </Stack>
            </TableCell>
          </TableRow>
        );
      }}
    />
  );
}

import { CHECKOUT_COUNTRIES, type InvoiceDTO, type SubscriptionInfoDTO } from "@atende/contracts";
import { Box, Divider, Stack, Typography } from "@mui/material";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { formatBRL, formatDate } from "../../i18n/format";
import type { CheckoutFormValues } from "./checkoutForm";

interface CheckoutReviewStepProps {
  plan: NonNullable<SubscriptionInfoDTO["plan"]>;
  invoice: InvoiceDTO | null;
  values: CheckoutFormValues;
}

function Line({ label, children }: { label: ReactNode; children: ReactNode }) {
  return (
    <Stack direction="row" spacing={2} sx={{ justifyContent: "space-between", py: 0.5 }}>
      <Typography color="text.secondary">{label}</Typography>
      <Typography sx={{ textAlign: "right", fontWeight: 500 }}>{children}</Typography>
    </Stack>
  );
}

/** Revisar: the plan (price in BRL per month, users, connections), the invoice paid and the payer. */
export function CheckoutReviewStep({ plan, invoice, values }: CheckoutReviewStepProps) {
  const { t, i18n } = useTranslation();
  const money = (value: number) => formatBRL(value, i18n.language);
  const limit = (n: number) => (n === 0 ? t("billing.checkout.plans.unlimited") : n);
  const country = CHECKOUT_COUNTRIES.find((c) => c.value === values.country)?.label ?? values.country;

  return (
    <Stack spacing={2} data-testid="checkout-review">
      <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
        {t("billing.checkout.review.title")}
      </Typography>
      <Box>
        <Typography variant="overline" color="text.secondary">
          {t("billing.checkout.review.details")}
        </Typography>
        <Line label={t("billing.checkout.review.plan")}>{plan.name}</Line>
        <Line label={t("billing.checkout.review.users")}>{limit(plan.users)}</Line>
        <Line label={t("billing.checkout.review.connections")}>{limit(plan.connections)}</Line>
        <Line label={t("billing.checkout.review.price")}>
          {money(plan.value)}
          {t("billing.checkout.plans.perMonth")}
        </Line>
        <Typography variant="body2" color="text.secondary">
          {t("billing.checkout.review.charges")}
        </Typography>
      </Box>
      <Divider />
      <Box>
        <Typography variant="overline" color="text.secondary">
          {t("billing.checkout.review.payer")}
        </Typography>
        <Typography>{values.firstName}</Typography>
        {values.cpfCnpj && <Typography color="text.secondary">{values.cpfCnpj}</Typography>}
        <Typography color="text.secondary">
          {values.address2}, {values.city} · {values.zipcode} · {country}
        </Typography>
        {values.email && <Typography color="text.secondary">{values.email}</Typography>}
      </Box>
      <Divider />
      {invoice && (
        <Typography variant="body2" color="text.secondary">
          {t("billing.checkout.invoice", { id: invoice.id, detail: invoice.detail })} ·{" "}
          {t("billing.invoices.columns.dueDate")} {formatDate(invoice.dueDate)}
        </Typography>
      )}
      <Stack direction="row" sx={{ justifyContent: "space-between", alignItems: "baseline" }}>
        <Typography variant="h6" component="p">
          {t("billing.checkout.review.total")}
        </Typography>
        <Typography variant="h5" component="p" sx={{ fontWeight: 700 }} data-testid="checkout-total">
          {money(invoice?.value ?? plan.value)}
        </Typography>
      </Stack>
    </Stack>
  );
}

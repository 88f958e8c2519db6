import ReceiptIcon from "@mui/icons-material/ReceiptLongOutlined";
import TimerIcon from "@mui/icons-material/HourglassBottomOutlined";
import { Box, Button, Card, CardContent, Divider, Skeleton, Stack, Typography } from "@mui/material";
import { useQuery } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router-dom";
import { fetchSubscriptionInfo, subscriptionKeys } from "../../api/billing";
import { useSessionUser } from "../../auth/AuthContext";
import { trialDaysOf } from "../../auth/trial";
import { CheckoutDialog } from "../../components/CheckoutDialog/CheckoutDialog";
import { PastDueNotice } from "../../components/PastDueNotice";
import { formatBRL, formatDate } from "../../i18n/format";

function Fact({ label, children, testId }: { label: ReactNode; children: ReactNode; testId?: string }) {
  return (
    <Box>
      <Typography variant="overline" color="text.secondary">
        {label}
      </Typography>
      <Typography variant="h6" component="p" data-testid={testId}>
        {children}
      </Typography>
    </Box>
  );
}

/**
 * /subscription: the trial days left (from the company's trialExpiration), the due date, the plan,
 * the billing e-mail, and 'Assine Agora!', which opens the checkout for the company's open invoice.
 */
export function SubscriptionPage() {
  const { t, i18n } = useTranslation();
  const { company } = useSessionUser();
  const [checkout, setCheckout] = useState(false);
  const info = useQuery({
    queryKey: subscriptionKeys.info(),
    queryFn: ({ signal }) => fetchSubscriptionInfo(signal),
  });
  const timezone = company.settings.find((s) => s.key === "timezone")?.value || undefined;
  // From the session, which a payment updates at once (PaymentWatcher).
  const { trialExpiration, dueDate } = company;
  const trialDays = trialDaysOf(company, new Date(), timezone);

  return (
    <Box sx={{ p: { xs: 1.5, sm: 3 }, display: "flex", flexDirection: "column", gap: 2, maxWidth: 880 }}>
      <Typography variant="h5" component="h1" sx={{ fontWeight: 600 }}>
        {t("billing.subscription.title")}
      </Typography>
      <PastDueNotice />
      <Card variant="outlined">
        <CardContent>
          {info.isPending ? (
            <Stack spacing={2}>
              <Skeleton variant="rounded" height={48} />
              <Skeleton variant="rounded" height={96} />
            </Stack>
          ) : (
            <Stack spacing={3}>
              {trialDays !== null && (
                <Stack
                  direction="row"
                  spacing={2}
                  sx={{ alignItems: "center" }}
                  data-testid="subscription-trial"
                >
                  <TimerIcon color="warning" fontSize="large" />
                  <Box>
                    <Typography variant="overline" color="text.secondary">
                      {t("billing.subscription.trialTitle")}
                    </Typography>
                    <Typography variant="h6" component="p">
                      {trialDays === 0
                        ? t("billing.subscription.trialLastDay")
                        : t("billing.subscription.trialLeft", { count: trialDays })}
                    </Typography>
                    <Typography variant="body2" color="text.secondary">
                      {t("billing.subscription.trialUntil", { date: formatDate(trialExpiration) })}
                    </Typography>
                  </Box>
                </Stack>
              )}
              <Box sx={{ display: "grid", gap: 2, gridTemplateColumns: { xs: "1fr", sm: "1fr 1fr" } }}>
                <Fact label={t("billing.subscription.plan")}>
                  {info.data?.plan
                    ? `${info.data.plan.name} · ${formatBRL(info.data.plan.value, i18n.language)}${t("billing.checkout.plans.perMonth")}`
                    : "—"}
                </Fact>
                <Fact label={t("billing.subscription.billingEmail")} testId="subscription-email">
                  {info.data?.company.email || "—"}
                </Fact>
                <Fact label={t("billing.invoices.columns.dueDate")} testId="subscription-due-date">
                  {dueDate ? formatDate(dueDate) : t("billing.subscription.noDueDate")}
                </Fact>
              </Box>
              <Divider />
              <Stack direction={{ xs: "column", sm: "row" }} spacing={1.5}>
                <Button variant="contained" size="large" onClick={() => setCheckout(true)}>
                  {t("billing.subscription.subscribe")}
                </Button>
                <Button component={RouterLink} to="/financeiro" startIcon={<ReceiptIcon />}>
                  {t("billing.subscription.invoices")}
                </Button>
              </Stack>
            </Stack>
          )}
        </CardContent>
      </Card>
      {checkout && <CheckoutDialog onClose={() => setCheckout(false)} />}
    </Box>
  );
}

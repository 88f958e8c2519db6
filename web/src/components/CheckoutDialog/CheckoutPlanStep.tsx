import type { SubscriptionInfoDTO } from "@atende/contracts";
import CheckCircleIcon from "@mui/icons-material/CheckCircle";
import { Box, Card, CardContent, Chip, Stack, Typography } from "@mui/material";
import { useTranslation } from "react-i18next";
import { formatBRL } from "../../i18n/format";

type Plan = NonNullable<SubscriptionInfoDTO["plan"]>;

interface CheckoutPlanStepProps {
  plan: Plan;
}

/**
 * Personalizar: the plan subscribed, its price per month and its limits. The invoice bills the
 * company's plan; a change of plan is the super user's (Settings, Empresas), so it is the one shown.
 */
export function CheckoutPlanStep({ plan }: CheckoutPlanStepProps) {
  const { t, i18n } = useTranslation();
  const limit = (key: "users" | "connections" | "queues", count: number) =>
    count === 0
      ? `${t(`billing.checkout.plans.labels.${key}`)}: ${t("billing.checkout.plans.unlimited")}`
      : t(`billing.checkout.plans.${key}`, { count });

  return (
    <Stack spacing={2}>
      <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
        {t("billing.checkout.plans.heading")}
      </Typography>
      <Box
        sx={{
          display: "grid",
          gridTemplateColumns: { xs: "1fr", sm: "minmax(0, 320px)" },
          justifyContent: "center",
        }}
      >
        <Card
          variant="outlined"
          sx={{ borderColor: "primary.main", borderWidth: 2 }}
          data-testid={`checkout-plan-${plan.id}`}
        >
          <CardContent>
            <Stack direction="row" sx={{ alignItems: "center", justifyContent: "space-between", mb: 1 }}>
              <Typography variant="h6" component="p">
                {plan.name}
              </Typography>
              <Chip size="small" label={t("billing.checkout.plans.current")} />
            </Stack>
            <Typography variant="h4" component="p" sx={{ fontWeight: 700 }}>
              {formatBRL(plan.value, i18n.language)}
              <Typography component="span" color="text.secondary" sx={{ ml: 0.5 }}>
                {t("billing.checkout.plans.perMonth")}
              </Typography>
            </Typography>
            <Stack component="ul" spacing={0.5} sx={{ pl: 2, my: 1.5 }}>
              <li>{limit("users", plan.users)}</li>
              <li>{limit("connections", plan.connections)}</li>
              <li>{limit("queues", plan.queues)}</li>
            </Stack>
            <Stack direction="row" spacing={1} sx={{ alignItems: "center", color: "primary.main" }}>
              <CheckCircleIcon fontSize="small" />
              <Typography variant="button">{t("billing.checkout.plans.selected")}</Typography>
            </Stack>
          </CardContent>
        </Card>
      </Box>
    </Stack>
  );
}

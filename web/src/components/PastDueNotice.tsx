import { Alert, AlertTitle } from "@mui/material";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useAuth } from "../auth/AuthContext";
import { formatDate } from "../i18n/format";

/** On the payment pages while the company is past due: why everything else is closed, and how to open it. */
export function PastDueNotice({ action }: { action?: ReactNode }) {
  const { t } = useTranslation();
  const { pastDue } = useAuth();
  if (pastDue === null) return null;
  return (
    <Alert severity="error" variant="outlined" data-testid="past-due-notice" action={action}>
      <AlertTitle sx={{ fontWeight: 600 }}>
        {t("billing.pastDue.title", { date: formatDate(pastDue) })}
      </AlertTitle>
      {t("billing.pastDue.body")} {t("billing.pastDue.support")}
    </Alert>
  );
}

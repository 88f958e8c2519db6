import TimerIcon from "@mui/icons-material/HourglassBottomOutlined";
import { Chip, Tooltip } from "@mui/material";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router-dom";
import { companyKeys, fetchCompany } from "../api/settings";
import { useSessionUser } from "../auth/AuthContext";
import { can } from "../auth/permissions";
import { trialDaysOf } from "../auth/trial";
import { formatDate } from "../i18n/format";

/** While the user's company is on trial (a sign-up's), the days it has left, in the top bar. */
export function TrialChip() {
  const { t } = useTranslation();
  const user = useSessionUser();
  const { company } = user;
  const timezone = company.settings.find((s) => s.key === "timezone")?.value || undefined;
  // A server whose session does not carry the trial yet: the company's own record does.
  const known = company.trialExpiration !== undefined;
  const own = useQuery({
    queryKey: companyKeys.detail(company.id),
    queryFn: ({ signal }) => fetchCompany(company.id, signal),
    enabled: !known,
    meta: { silent: true },
  });
  const trialExpiration = known ? company.trialExpiration : own.data?.trialExpiration;
  const days = trialDaysOf({ dueDate: company.dueDate, trialExpiration }, new Date(), timezone);
  // An admin goes from the chip to the subscription page ('Assine Agora!').
  const link = can(user, "invoices:view")
    ? { component: RouterLink, to: "/subscription", clickable: true }
    : {};
  if (days === null) return null;
  return (
    <Tooltip describeChild title={t("platform.trial.hint", { date: formatDate(trialExpiration) })}>
      <Chip
        {...link}
        icon={<TimerIcon />}
        color="warning"
        size="small"
        role="status"
        data-testid="trial-chip"
        label={
          <>
            <span className="trial-long">
              {days === 0 ? t("platform.trial.lastDay") : t("platform.trial.chip", { count: days })}
            </span>
            <span className="trial-short">
              {days === 0 ? t("platform.trial.lastDayShort") : t("platform.trial.short", { count: days })}
            </span>
          </>
        }
        sx={{
          mx: 1,
          fontWeight: 600,
          flexShrink: 0,
          "& .trial-long": { display: { xs: "none", md: "inline" } },
          "& .trial-short": { display: { xs: "inline", md: "none" } },
        }}
      />
    </Tooltip>
  );
}

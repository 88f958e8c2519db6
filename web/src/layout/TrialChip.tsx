import { trialDaysLeft } from "@atende/contracts";
import TimerIcon from "@mui/icons-material/HourglassBottomOutlined";
import { Chip, Tooltip } from "@mui/material";
import { useTranslation } from "react-i18next";
import { useSessionUser } from "../auth/AuthContext";
import { formatDate } from "../i18n/format";

/** While the user's company is on trial (a sign-up's), the days it has left, in the top bar. */
export function TrialChip() {
  const { t } = useTranslation();
  const { company } = useSessionUser();
  const days = trialDaysLeft(company.trialExpiration, Date.now());
  if (days === null) return null;
  return (
    <Tooltip title={t("platform.trial.hint", { date: formatDate(company.trialExpiration) })}>
      <Chip
        icon={<TimerIcon />}
        color="warning"
        size="small"
        role="status"
        data-testid="trial-chip"
        label={
          <>
            <span className="trial-long">{t("platform.trial.chip", { count: days })}</span>
            <span className="trial-short">{t("platform.trial.short", { count: days })}</span>
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

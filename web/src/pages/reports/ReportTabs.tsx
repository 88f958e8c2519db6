import { Tab, Tabs } from "@mui/material";
import { useTranslation } from "react-i18next";
import { Link as RouterLink, useLocation } from "react-router-dom";

const TABS = [
  { to: "/reports", key: "tickets" },
  { to: "/reports/service-levels", key: "serviceLevels" },
] as const;

/** The two reports, as links styled as tabs: the tickets report and the service levels. */
export function ReportTabs() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const current = TABS.find((tab) => tab.to === pathname)?.to ?? false;
  return (
    <Tabs
      value={current}
      component="nav"
      aria-label={t("slaReport.tabs.label")}
      sx={{ borderBottom: 1, borderColor: "divider", minHeight: 40 }}
    >
      {TABS.map((tab) => (
        <Tab
          key={tab.to}
          value={tab.to}
          label={t(`slaReport.tabs.${tab.key}`)}
          component={RouterLink}
          to={tab.to}
          aria-current={current === tab.to ? "page" : undefined}
          sx={{ minHeight: 40 }}
        />
      ))}
    </Tabs>
  );
}

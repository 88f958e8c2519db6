import { Box, Paper, Tab, Tabs, Typography } from "@mui/material";
import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { settingValue, useSettings } from "../../api/settings";
import { useAuth } from "../../auth/AuthContext";
import { CompanyHoursTab } from "./CompanyHoursTab";
import { LogoTab } from "./LogoTab";
import { OptionsTab } from "./OptionsTab";

type TabKey = "options" | "schedules" | "logo";

/** /settings: the Options tab (each change saved at once) and, with company hours, the Horarios tab. */
export function SettingsPage() {
  const { t } = useTranslation();
  const baseId = useId();
  const settings = useSettings();
  const [tab, setTab] = useState<TabKey>("options");
  const { user } = useAuth();
  const tabs: TabKey[] =
    settingValue(settings.data, "scheduleType") === "company" ? ["options", "schedules"] : ["options"];
  // The super user's tabs.
  if (user?.super) tabs.push("logo");
  const shownTab = tabs.includes(tab) ? tab : "options";

  return (
    <Box
      sx={{ p: { xs: 1.5, sm: 3 }, display: "flex", flexDirection: "column", gap: 2, flex: 1, minHeight: 0 }}
    >
      <Typography variant="h5" component="h1" sx={{ fontWeight: 600 }}>
        {t("settings.title")}
      </Typography>
      <Paper variant="outlined" sx={{ flex: 1, minHeight: 0, display: "flex", flexDirection: "column" }}>
        <Tabs
          value={shownTab}
          onChange={(_, value: TabKey) => setTab(value)}
          variant="scrollable"
          sx={{ px: 2, borderBottom: 1, borderColor: "divider" }}
        >
          {tabs.map((key) => (
            <Tab
              key={key}
              value={key}
              label={key === "logo" ? t("logos.tab") : t(`settings.tabs.${key}`)}
              id={`${baseId}-tab-${key}`}
              aria-controls={`${baseId}-panel-${key}`}
            />
          ))}
        </Tabs>
        <Box
          role="tabpanel"
          id={`${baseId}-panel-${shownTab}`}
          aria-labelledby={`${baseId}-tab-${shownTab}`}
          sx={{ p: { xs: 2, sm: 3 }, overflow: "auto", flex: 1, minHeight: 0 }}
        >
          {shownTab === "options" && <OptionsTab settings={settings} />}
          {shownTab === "schedules" && <CompanyHoursTab />}
          {shownTab === "logo" && <LogoTab />}
        </Box>
      </Paper>
    </Box>
  );
}

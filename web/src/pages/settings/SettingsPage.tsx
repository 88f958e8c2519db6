import type { SessionUserDTO, SettingDTO } from "@atende/contracts";
import { Box, Paper, Tab, Tabs, Typography } from "@mui/material";
import type { UseQueryResult } from "@tanstack/react-query";
import { useId, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { settingValue, useSettings } from "../../api/settings";
import { useSessionUser } from "../../auth/AuthContext";
import { can } from "../../auth/permissions";
import { CompanyHoursTab } from "./CompanyHoursTab";
import { LogoTab } from "./LogoTab";
import { OptionsTab } from "./OptionsTab";
import { CompaniesTab } from "./platform/CompaniesTab";
import { HelpsTab } from "./platform/HelpsTab";
import { NewCompanyTab } from "./platform/NewCompanyTab";
import { PlansTab } from "./platform/PlansTab";
import { WebhooksTab } from "./webhooks/WebhooksTab";

interface TabContext {
  user: SessionUserDTO;
  settings: UseQueryResult<SettingDTO[]>;
  /** Brings another tab forward (Cadastrar Empresa → Empresas once a company is created). */
  show(key: string): void;
}

interface SettingsTab {
  key: string;
  /** The tab's label, a translation key. */
  label: string;
  shown(ctx: TabContext): boolean;
  render(ctx: TabContext): ReactNode;
}

const always = () => true;
const superOnly = ({ user }: TabContext) => user.super;

/** The tabs in the spec's order: one line each. */
const TABS: SettingsTab[] = [
  {
    key: "options",
    label: "settings.tabs.options",
    shown: always,
    render: (c) => <OptionsTab settings={c.settings} />,
  },
  {
    key: "schedules",
    label: "settings.tabs.schedules",
    shown: (c) => settingValue(c.settings.data, "scheduleType") === "company",
    render: () => <CompanyHoursTab />,
  },
  {
    key: "webhooks",
    label: "api.webhooks.tab",
    shown: ({ user }) => can(user, "settings:edit"),
    render: () => <WebhooksTab />,
  },
  { key: "logo", label: "logos.tab", shown: superOnly, render: () => <LogoTab /> },
  { key: "companies", label: "platform.tabs.companies", shown: superOnly, render: () => <CompaniesTab /> },
  {
    key: "newCompany",
    label: "platform.tabs.newCompany",
    shown: superOnly,
    render: (c) => <NewCompanyTab onCreated={() => c.show("companies")} />,
  },
  { key: "plans", label: "platform.tabs.plans", shown: superOnly, render: () => <PlansTab /> },
  { key: "helps", label: "platform.tabs.helps", shown: superOnly, render: () => <HelpsTab /> },
];

/** /settings: Opcoes, Horarios with company hours, and the super user's platform tabs. */
export function SettingsPage() {
  const { t } = useTranslation();
  const baseId = useId();
  const user = useSessionUser();
  const settings = useSettings();
  const [tab, setTab] = useState("options");
  const ctx: TabContext = { user, settings, show: setTab };
  const tabs = TABS.filter((entry) => entry.shown(ctx));
  const shown = tabs.find((entry) => entry.key === tab) ?? tabs[0]!;

  return (
    <Box
      sx={{ p: { xs: 1.5, sm: 3 }, display: "flex", flexDirection: "column", gap: 2, flex: 1, minHeight: 0 }}
    >
      <Typography variant="h5" component="h1" sx={{ fontWeight: 600 }}>
        {t("settings.title")}
      </Typography>
      <Paper variant="outlined" sx={{ flex: 1, minHeight: 0, display: "flex", flexDirection: "column" }}>
        <Tabs
          value={shown.key}
          onChange={(_, value: string) => setTab(value)}
          variant="scrollable"
          allowScrollButtonsMobile
          sx={{ px: 2, borderBottom: 1, borderColor: "divider" }}
        >
          {tabs.map((entry) => (
            <Tab
              key={entry.key}
              value={entry.key}
              label={t(entry.label)}
              id={`${baseId}-tab-${entry.key}`}
              aria-controls={`${baseId}-panel-${entry.key}`}
            />
          ))}
        </Tabs>
        <Box
          role="tabpanel"
          id={`${baseId}-panel-${shown.key}`}
          aria-labelledby={`${baseId}-tab-${shown.key}`}
          sx={{ p: { xs: 2, sm: 3 }, overflow: "auto", flex: 1, minHeight: 0 }}
        >
          {shown.render(ctx)}
        </Box>
      </Paper>
    </Box>
  );
}

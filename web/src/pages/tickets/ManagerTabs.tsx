import CheckCircleIcon from "@mui/icons-material/CheckCircleOutlined";
import InboxIcon from "@mui/icons-material/MoveToInboxOutlined";
import SearchIcon from "@mui/icons-material/Search";
import { Box, Tab, Tabs } from "@mui/material";
import { memo, type ReactNode } from "react";
import { useTranslation } from "react-i18next";

export type MainTab = "open" | "closed" | "search";
export type OpenTab = "open" | "pending";

function CountPill({ count, active }: { count: number | undefined; active: boolean }) {
  if (!count) return null;
  return (
    <Box
      component="span"
      sx={{
        ml: 1,
        minWidth: 20,
        height: 20,
        px: 0.75,
        borderRadius: 10,
        display: "inline-grid",
        placeItems: "center",
        typography: "caption",
        fontWeight: 700,
        lineHeight: 1,
        bgcolor: active ? "primary.main" : "action.selected",
        color: active ? "primary.contrastText" : "text.primary",
      }}
    >
      {count > 999 ? "999+" : count}
    </Box>
  );
}

function TabLabel({ children, count, active }: { children: ReactNode; count?: number; active: boolean }) {
  return (
    <Box component="span" sx={{ display: "inline-flex", alignItems: "center" }}>
      {children}
      <CountPill count={count} active={active} />
    </Box>
  );
}

/*
 * The tabs are memoized on purpose: MUI's Tabs measure their indicator at every render, which
 * forces a layout of the whole page, and the manager renders at every page of tickets loaded.
 */

/** Open, resolved and search. */
export const MainTabs = memo(function MainTabs({
  value,
  onChange,
}: {
  value: MainTab;
  onChange(value: MainTab): void;
}) {
  const { t } = useTranslation();
  return (
    <Tabs
      value={value}
      onChange={(_, next: MainTab) => onChange(next)}
      variant="fullWidth"
      aria-label={t("tickets.title")}
      sx={{ minHeight: 44, "& .MuiTab-root": { minHeight: 44, py: 0.5 } }}
    >
      <Tab
        value="open"
        icon={<InboxIcon fontSize="small" />}
        iconPosition="start"
        label={t("tickets.tabs.open")}
      />
      <Tab
        value="closed"
        icon={<CheckCircleIcon fontSize="small" />}
        iconPosition="start"
        label={t("tickets.tabs.closed")}
      />
      <Tab
        value="search"
        icon={<SearchIcon fontSize="small" />}
        iconPosition="start"
        label={t("tickets.tabs.search")}
      />
    </Tabs>
  );
});

/** The open tab's two lists, in service and waiting, with their counts. */
export const OpenTabs = memo(function OpenTabs({
  value,
  onChange,
  openCount,
  pendingCount,
}: {
  value: OpenTab;
  onChange(value: OpenTab): void;
  openCount: number | undefined;
  pendingCount: number | undefined;
}) {
  const { t } = useTranslation();
  return (
    <Tabs
      value={value}
      onChange={(_, next: OpenTab) => onChange(next)}
      variant="fullWidth"
      aria-label={t("tickets.tabs.open")}
      sx={{ minHeight: 40, "& .MuiTab-root": { minHeight: 40, py: 0.5, fontSize: 14 } }}
    >
      <Tab
        value="open"
        label={
          <TabLabel count={openCount} active={value === "open"}>
            {t("tickets.tabs.attending")}
          </TabLabel>
        }
      />
      <Tab
        value="pending"
        label={
          <TabLabel count={pendingCount} active={value === "pending"}>
            {t("tickets.tabs.waiting")}
          </TabLabel>
        }
      />
    </Tabs>
  );
});

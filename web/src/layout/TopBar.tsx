import DarkModeIcon from "@mui/icons-material/DarkModeOutlined";
import LightModeIcon from "@mui/icons-material/LightModeOutlined";
import MenuIcon from "@mui/icons-material/Menu";
import RefreshIcon from "@mui/icons-material/Refresh";
import { AppBar, Box, IconButton, Toolbar, Tooltip, Typography } from "@mui/material";
import { useTranslation } from "react-i18next";
import { useSessionUser } from "../auth/AuthContext";
import { can } from "../auth/permissions";
import { BrandLogo } from "../components/BrandLogo";
import { LanguageSwitch } from "../components/LanguageSwitch";
import { formatDate } from "../i18n/format";
import { AccountMenu } from "./AccountMenu";
import { TrialChip } from "./TrialChip";
import { AnnouncementsPopover } from "./AnnouncementsPopover";
import { useThemeMode } from "./ThemeModeProvider";
import { VolumeControl } from "./VolumeControl";
import { ChatPopover } from "./ChatPopover";
import { NotificationBell } from "../notifications/NotificationBell";
import { CommandPaletteButton } from "./CommandPalette";

const onWideScreens = { display: { xs: "none", sm: "inline-flex" } } as const;

interface TopBarProps {
  onToggleDrawer(): void;
  onOpenProfile(): void;
}

export function TopBar({ onToggleDrawer, onOpenProfile }: TopBarProps) {
  const { t } = useTranslation();
  const user = useSessionUser();
  const { mode, toggleMode } = useThemeMode();
  const dueDate = user.company.dueDate;
  const showDueDate = can(user, "drawer-admin-items:view") && dueDate;

  return (
    <AppBar position="fixed" sx={{ zIndex: (theme) => theme.zIndex.drawer + 1 }}>
      <Toolbar sx={{ gap: 0.5 }}>
        <IconButton
          color="inherit"
          edge="start"
          aria-label={t("topBar.toggleDrawer")}
          onClick={onToggleDrawer}
        >
          <MenuIcon />
        </IconButton>
        <Box sx={{ display: { xs: "none", sm: "block" }, ml: 1 }}>
          <BrandLogo target="interno" maxHeight={36} fallback={null} />
        </Box>
        {/* On a phone the icons take the bar: the greeting would shrink to its first letter. */}
        <Box sx={{ flex: 1, display: { xs: "block", sm: "none" } }} />
        <Typography
          component="p"
          noWrap
          sx={{
            flex: 1,
            ml: 1,
            display: { xs: "none", sm: "block" },
            fontSize: { xs: "0.875rem", sm: "1rem" },
          }}
        >
          {t("topBar.greeting", { name: user.name })}
          {showDueDate && t("topBar.activeUntil", { date: formatDate(dueDate) })}
        </Typography>
        {/* The spec's order: theme, volume, refresh, bell, announcements, internal chat, account. */}
        <TrialChip />
        <CommandPaletteButton />
        {/* On a phone the theme and the reload live in the command palette: the bar has no room. */}
        <Tooltip title={t("topBar.toggleTheme")}>
          <IconButton
            color="inherit"
            aria-label={t("topBar.toggleTheme")}
            aria-pressed={mode === "dark"}
            onClick={toggleMode}
            sx={onWideScreens}
          >
            {mode === "dark" ? <LightModeIcon /> : <DarkModeIcon />}
          </IconButton>
        </Tooltip>
        <VolumeControl />
        <Tooltip title={t("topBar.refresh")}>
          <IconButton
            color="inherit"
            aria-label={t("topBar.refresh")}
            onClick={() => window.location.reload()}
            sx={onWideScreens}
          >
            <RefreshIcon />
          </IconButton>
        </Tooltip>
        <NotificationBell />
        <AnnouncementsPopover />
        {user.company.plan?.useInternalChat && <ChatPopover />}
        <LanguageSwitch />
        <AccountMenu onOpenProfile={onOpenProfile} />
      </Toolbar>
    </AppBar>
  );
}

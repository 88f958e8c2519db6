import LogoutIcon from "@mui/icons-material/LogoutOutlined";
import {
  Badge,
  Box,
  Divider,
  List,
  ListItem,
  ListItemButton,
  ListItemIcon,
  ListItemText,
  ListSubheader,
  Typography,
} from "@mui/material";
import { useQuery } from "@tanstack/react-query";
import { Fragment } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink, useLocation } from "react-router-dom";
import { hasCampaignFlag } from "../api/session";
import { useAuth, useSessionUser } from "../auth/AuthContext";
import { can } from "../auth/permissions";
import { menuGroups, type MenuEntry } from "./menuEntries";
import { useConnectionsAlert } from "./useConnectionsAlert";
import { fetchVersion, versionKeys } from "../api/version";
import { unreadTotal, useRecentChats } from "../api/chats";

function isActive(to: string, pathname: string): boolean {
  return to === "/" ? pathname === "/" : pathname === to || pathname.startsWith(`${to}/`);
}

function useProductVersion(enabled: boolean): string | undefined {
  const { data } = useQuery({
    queryKey: versionKeys.all,
    queryFn: ({ signal }) => fetchVersion(signal),
    enabled,
    staleTime: "static",
    meta: { silent: true },
  });
  return data?.version;
}

interface SideMenuProps {
  /** Called after following a link (the narrow layout closes its drawer). */
  onNavigate?: () => void;
}

export function SideMenu({ onNavigate }: SideMenuProps) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const { logout, pastDue } = useAuth();
  const user = useSessionUser();
  const isAdmin = can(user, "drawer-admin-items:view");
  const version = useProductVersion(isAdmin);
  const connectionsAlert = useConnectionsAlert(isAdmin);
  const chatsAllowed = user.company.plan?.useInternalChat === true;
  const chatUnread = unreadTotal(useRecentChats(chatsAllowed).data, user.id) > 0;

  function entryLink({ to, page, icon: Icon }: MenuEntry) {
    const active = isActive(to, pathname);
    const alert = to === "/connections" && connectionsAlert;
    const unreadDot = to === "/chats" && chatUnread;
    return (
      <ListItemButton
        key={to}
        component={RouterLink}
        to={to}
        selected={active}
        aria-current={active ? "page" : undefined}
        aria-description={
          alert ? t("connections.alert") : unreadDot ? t("internalChat.newMessage") : undefined
        }
        onClick={onNavigate}
        sx={{ borderRadius: 2, mx: 1, my: 0.25 }}
      >
        <ListItemIcon sx={{ minWidth: 40 }}>
          {to === "/connections" ? (
            <Badge
              color="error"
              badgeContent="!"
              invisible={!alert}
              slotProps={{ badge: { "aria-hidden": true } }}
            >
              <Icon fontSize="small" />
            </Badge>
          ) : to === "/chats" ? (
            <Badge
              color="error"
              variant="dot"
              invisible={!unreadDot}
              data-testid="chats-menu-dot"
              slotProps={{ badge: { "aria-hidden": true } }}
            >
              <Icon fontSize="small" />
            </Badge>
          ) : (
            <Icon fontSize="small" />
          )}
        </ListItemIcon>
        <ListItemText primary={t(`pages.${page}`)} />
      </ListItemButton>
    );
  }

  return (
    <Box component="nav" aria-label={t("menu.label")} sx={{ overflowY: "auto", flex: 1, pb: 1 }}>
      {menuGroups(user, { campaigns: hasCampaignFlag(), pastDue: pastDue !== null }).map((group, index) => (
        <Fragment key={group.heading}>
          {index > 0 && <Divider sx={{ my: 1 }} />}
          {/* The heading names the list from outside it: a <ul> holds only <li> entries. */}
          <ListSubheader
            id={`menu-${group.heading}`}
            component="div"
            disableSticky
            sx={{ bgcolor: "inherit", lineHeight: "32px" }}
          >
            {t(`menu.${group.heading}`)}
          </ListSubheader>
          <List dense aria-labelledby={`menu-${group.heading}`} sx={{ pt: 0 }}>
            {group.entries.map((entry) => (
              <ListItem key={entry.to} disablePadding>
                {entryLink(entry)}
              </ListItem>
            ))}
          </List>
        </Fragment>
      ))}
      <Divider sx={{ my: 1 }} />
      <List dense>
        <ListItem disablePadding>
          <ListItemButton onClick={() => void logout()} sx={{ borderRadius: 2, mx: 1 }}>
            <ListItemIcon sx={{ minWidth: 40 }}>
              <LogoutIcon fontSize="small" />
            </ListItemIcon>
            <ListItemText primary={t("menu.logout")} />
          </ListItemButton>
        </ListItem>
      </List>
      {isAdmin && version && (
        <Typography variant="caption" color="text.secondary" component="p" sx={{ px: 3, pt: 1 }}>
          {t("menu.version", { version })}
        </Typography>
      )}
    </Box>
  );
}

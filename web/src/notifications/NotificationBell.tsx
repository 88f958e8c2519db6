import NotificationsActiveIcon from "@mui/icons-material/NotificationsActiveOutlined";
import NotificationsNoneIcon from "@mui/icons-material/NotificationsNoneOutlined";
import NotificationsOffIcon from "@mui/icons-material/NotificationsOffOutlined";
import { Badge, IconButton, Tooltip } from "@mui/material";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "../api/toast";
import { useAuth } from "../auth/AuthContext";
import { currentLanguage } from "../i18n";
import { askDesktopPermission, desktopMuted, setDesktopMuted, useDesktopPermission } from "./desktop";
import { turnPushOff, usePushActive, usePushDevice } from "./push";

/**
 * The top bar's bell, on every page: browser notifications for new messages: asks the browser's permission on click (browsers only
 * ask from a user gesture), then mutes and unmutes them here. Blocked in the browser: says where to
 * allow them. Absent where the browser has no notifications. On, this device also hears them by
 * Web Push while the app is closed or the phone locked (notifications/push.ts); muted, it does not.
 */
export function NotificationBell() {
  const { t } = useTranslation();
  const [permission, setPermission] = useDesktopPermission();
  const [muted, setMuted] = useState(desktopMuted);
  const pushOn = usePushActive();
  // A new language registers the device again: its pushes are written in it.
  // A company past its due date hears nothing (the server sends it no push) until it pays.
  const { pastDue } = useAuth();
  usePushDevice(permission === "granted" && !muted && pastDue === null, currentLanguage());

  if (permission === "unsupported") return null;

  async function click() {
    if (permission === "default") {
      const answer = await askDesktopPermission();
      setPermission(answer);
      if (answer === "granted") {
        setDesktopMuted(false);
        setMuted(false);
      }
    } else if (permission === "granted") {
      setDesktopMuted(!muted);
      setMuted(!muted);
      if (!muted) void turnPushOff();
    } else {
      toast(t("tickets.notifications.blockedHelp"), "info");
    }
  }

  const state =
    permission === "default" ? "ask" : permission === "denied" ? "blocked" : muted ? "muted" : "on";
  const label = t(`tickets.notifications.${state === "on" && pushOn ? "onPush" : state}`);
  const Icon =
    state === "on" ? NotificationsActiveIcon : state === "ask" ? NotificationsNoneIcon : NotificationsOffIcon;
  return (
    <Tooltip title={label}>
      <IconButton color="inherit" aria-label={label} data-state={state} onClick={() => void click()}>
        <Badge color="secondary" variant="dot" invisible={state !== "ask"}>
          <Icon />
        </Badge>
      </IconButton>
    </Tooltip>
  );
}

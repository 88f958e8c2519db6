import { LIMITS } from "@atende/contracts";
import { Box, Drawer, Toolbar, useMediaQuery, useTheme } from "@mui/material";
import { Suspense, useState } from "react";
import { Outlet } from "react-router-dom";
import { DuplicateLoginWatcher } from "../auth/DuplicateLoginWatcher";
import { useSessionUser } from "../auth/AuthContext";
import { FullPageLoader } from "../components/FullPageLoader";
import { MessageAlerts } from "../notifications/MessageAlerts";
import { ChatAlerts } from "../notifications/ChatAlerts";
import { ConnectionAlerts } from "../notifications/ConnectionAlerts";
import { SlaAlerts } from "../notifications/SlaAlerts";
import { UserModal } from "../components/UserModal/UserModal";
import { PaymentWatcher } from "./PaymentWatcher";
import { SideMenu } from "./SideMenu";
import { TopBar } from "./TopBar";

const DRAWER_WIDTH = LIMITS.drawerWidth;

/** The shell of every private page: top bar, side menu (a drawer of 240 px) and the page. */
export function AppLayout() {
  const theme = useTheme();
  const user = useSessionUser();
  const wide = useMediaQuery(theme.breakpoints.up("sm"), { noSsr: true });
  const [wideOpen, setWideOpen] = useState(true);
  const [narrowOpen, setNarrowOpen] = useState(false);
  const [profileOpen, setProfileOpen] = useState(false);
  const drawerShown = wide && wideOpen;

  return (
    <Box sx={{ display: "flex", height: "100vh" }}>
      <DuplicateLoginWatcher />
      <PaymentWatcher />
      <MessageAlerts />
      <ConnectionAlerts />
      <SlaAlerts />
      {user.company.plan?.useInternalChat && <ChatAlerts />}
      <TopBar
        onToggleDrawer={() => (wide ? setWideOpen((open) => !open) : setNarrowOpen((open) => !open))}
        onOpenProfile={() => setProfileOpen(true)}
      />
      <Drawer
        variant={wide ? "persistent" : "temporary"}
        open={wide ? wideOpen : narrowOpen}
        onClose={() => setNarrowOpen(false)}
        sx={{
          width: drawerShown ? DRAWER_WIDTH : 0,
          flexShrink: 0,
          transition: theme.transitions.create("width"),
          "& .MuiDrawer-paper": { width: DRAWER_WIDTH, boxSizing: "border-box" },
        }}
      >
        <Toolbar />
        <SideMenu onNavigate={wide ? undefined : () => setNarrowOpen(false)} />
      </Drawer>
      <Box component="main" sx={{ flex: 1, minWidth: 0, display: "flex", flexDirection: "column" }}>
        <Toolbar />
        <Box sx={{ flex: 1, minHeight: 0, overflow: "auto", display: "flex", flexDirection: "column" }}>
          <Suspense fallback={<FullPageLoader />}>
            <Outlet />
          </Suspense>
        </Box>
      </Box>
      {profileOpen && <UserModal user={user} onClose={() => setProfileOpen(false)} />}
    </Box>
  );
}

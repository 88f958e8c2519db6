import ChatIcon from "@mui/icons-material/ChatOutlined";
import ForumIcon from "@mui/icons-material/Forum";
import ListIcon from "@mui/icons-material/FormatListBulleted";
import {
  BottomNavigation,
  BottomNavigationAction,
  Box,
  Paper,
  Stack,
  Typography,
  useMediaQuery,
} from "@mui/material";
import { alpha, useTheme } from "@mui/material/styles";
import { useCallback, useState } from "react";
import { useTranslation } from "react-i18next";
import { useParams } from "react-router-dom";
import { useViewer } from "../../auth/useViewer";
import { useTicketsLive } from "../../api/ticketsLive";
import { TicketChat } from "./chat/TicketChat";
import { TicketsManager } from "./TicketsManager";

/** What the right side shows with no ticket selected. */
function Welcome() {
  const { t } = useTranslation();
  return (
    <Stack
      spacing={2}
      sx={{ flex: 1, alignItems: "center", justifyContent: "center", textAlign: "center", p: 4 }}
    >
      <Box
        aria-hidden
        sx={(theme) => ({
          width: 112,
          height: 112,
          borderRadius: "50%",
          display: "grid",
          placeItems: "center",
          bgcolor: alpha(theme.palette.primary.main, 0.12),
          color: "primary.main",
        })}
      >
        <ForumIcon sx={{ fontSize: 56 }} />
      </Box>
      <Typography variant="h5" component="h2" sx={{ fontWeight: 600 }}>
        {t("tickets.welcome.title")}
      </Typography>
      <Typography variant="body1" color="text.secondary" sx={{ maxWidth: 360 }}>
        {t("tickets.welcome.text")}
      </Typography>
    </Stack>
  );
}

type NarrowTab = "ticket" | "list";

/**
 * The tickets screen (/tickets and /tickets/{uuid}): on wide screens the list on the left third and
 * the chat on the right; on narrow ones two bottom tabs, the ticket and the list. The list stays
 * mounted either way, so its tabs, filters and live counts survive switching.
 */
export function TicketsPage() {
  const { t } = useTranslation();
  const theme = useTheme();
  const narrow = useMediaQuery(theme.breakpoints.down("md"), { noSsr: true });
  const { ticketId: uuid } = useParams<{ ticketId?: string }>();
  const viewer = useViewer();
  useTicketsLive(viewer, uuid);

  const [narrowTab, setNarrowTab] = useState<NarrowTab>(uuid ? "ticket" : "list");
  const [tabFor, setTabFor] = useState(uuid);
  if (tabFor !== uuid) {
    // Another ticket was opened (from the list, a link or a notification): show it.
    setTabFor(uuid);
    setNarrowTab(uuid ? "ticket" : "list");
  }
  const showTicket = useCallback(() => setNarrowTab("ticket"), []);

  const chat = uuid ? <TicketChat key={uuid} uuid={uuid} /> : <Welcome />;
  const listShown = !narrow || narrowTab === "list";
  const chatShown = !narrow || narrowTab === "ticket";

  return (
    <Box sx={{ flex: 1, minHeight: 0, display: "flex", flexDirection: narrow ? "column" : "row" }}>
      <Paper
        square
        elevation={0}
        component="section"
        aria-label={t("tickets.title")}
        sx={{
          display: listShown ? "flex" : "none",
          flexDirection: "column",
          minHeight: 0,
          flex: narrow ? 1 : "0 0 33.333%",
          minWidth: narrow ? 0 : 340,
          borderRight: narrow ? 0 : 1,
          borderColor: "divider",
        }}
      >
        <TicketsManager viewer={viewer} selectedUuid={uuid} onOpened={showTicket} />
      </Paper>
      <Box
        sx={{
          display: chatShown ? "flex" : "none",
          flexDirection: "column",
          flex: 1,
          minWidth: 0,
          minHeight: 0,
          bgcolor: "background.default",
        }}
      >
        {chat}
      </Box>
      {narrow && (
        <Paper square elevation={0} sx={{ borderTop: 1, borderColor: "divider", flexShrink: 0 }}>
          <BottomNavigation
            showLabels
            value={narrowTab}
            onChange={(_, value: NarrowTab) => setNarrowTab(value)}
          >
            <BottomNavigationAction
              value="ticket"
              label={t("tickets.bottomTabs.ticket")}
              icon={<ChatIcon />}
            />
            <BottomNavigationAction value="list" label={t("tickets.bottomTabs.list")} icon={<ListIcon />} />
          </BottomNavigation>
        </Paper>
      )}
    </Box>
  );
}

import { hasUnseenAnnouncement, type AnnouncementDTO } from "@atende/contracts";
import CampaignIcon from "@mui/icons-material/CampaignOutlined";
import { Badge, Box, IconButton, List, ListItem, Popover, Stack, Tooltip, Typography } from "@mui/material";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { MyAnnouncements } from "@atende/contracts";
import { announcementKeys, fetchMyAnnouncements, markAnnouncementsSeen } from "../api/announcements";
import { useAnnouncementsLive } from "../api/announcementsLive";
import { AnnouncementImage } from "../components/AnnouncementImage";
import {
  ANNOUNCEMENT_PRIORITY_COLORS,
  AnnouncementPriorityChip,
} from "../components/AnnouncementPriorityChip";
import { formatDate, formatTime } from "../i18n/format";

/**
 * The top bar's announcements: the active ones addressed to the user's company, newest first, in
 * their priority's colour, with their picture; live; a dot until the user opens it.
 */
export function AnnouncementsPopover() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const mine = useQuery({
    queryKey: announcementKeys.mine(),
    queryFn: ({ signal }) => fetchMyAnnouncements(signal),
    meta: { silent: true },
  });
  useAnnouncementsLive();
  const records = mine.data?.records ?? [];
  const unseen = mine.data ? hasUnseenAnnouncement(records, mine.data.seenAt) : false;

  function open(target: HTMLElement) {
    setAnchor(target);
    if (!unseen) return;
    markAnnouncementsSeen()
      .then(({ seenAt }) =>
        queryClient.setQueryData<MyAnnouncements>(announcementKeys.mine(), (data) =>
          data ? { ...data, seenAt } : data,
        ),
      )
      .catch(() => undefined);
  }

  const label = t(unseen ? "announcements.popover.openUnseen" : "announcements.popover.open");
  return (
    <>
      <Tooltip title={t("announcements.popover.open")}>
        <IconButton color="inherit" aria-label={label} onClick={(event) => open(event.currentTarget)}>
          <Badge variant="dot" color="error" invisible={!unseen} data-testid="announcements-dot">
            <CampaignIcon />
          </Badge>
        </IconButton>
      </Tooltip>
      <Popover
        open={anchor !== null}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: "bottom", horizontal: "right" }}
        transformOrigin={{ vertical: "top", horizontal: "right" }}
        slotProps={{
          paper: {
            role: "dialog",
            "aria-label": t("announcements.popover.title"),
            sx: { width: { xs: "calc(100vw - 32px)", sm: 380 }, maxHeight: "70vh" },
          },
        }}
      >
        <Typography variant="subtitle1" component="h2" sx={{ px: 2, pt: 1.5, pb: 1, fontWeight: 600 }}>
          {t("announcements.popover.title")}
        </Typography>
        {records.length === 0 ? (
          <Typography variant="body2" color="text.secondary" sx={{ px: 2, pb: 2 }}>
            {t("announcements.popover.empty")}
          </Typography>
        ) : (
          <List disablePadding aria-label={t("announcements.popover.title")}>
            {records.map((record) => (
              <AnnouncementItem key={record.id} record={record} />
            ))}
          </List>
        )}
      </Popover>
    </>
  );
}

function AnnouncementItem({ record }: { record: AnnouncementDTO }) {
  return (
    <ListItem
      divider
      data-testid={`announcement-${record.id}`}
      data-priority={record.priority}
      sx={{
        display: "block",
        borderLeft: 4,
        borderLeftColor: ANNOUNCEMENT_PRIORITY_COLORS[record.priority],
        py: 1.25,
      }}
    >
      <Stack direction="row" spacing={1} sx={{ alignItems: "center", mb: 0.5 }}>
        <Typography
          variant="subtitle2"
          component="h3"
          sx={{ flex: 1, minWidth: 0, fontWeight: 600, color: ANNOUNCEMENT_PRIORITY_COLORS[record.priority] }}
        >
          {record.title}
        </Typography>
        <AnnouncementPriorityChip priority={record.priority} />
      </Stack>
      <Typography variant="body2" sx={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}>
        {record.text}
      </Typography>
      <AnnouncementImage record={record} />
      <Box sx={{ typography: "caption", color: "text.secondary", mt: 0.5 }}>
        {formatDate(record.publishedAt)} {formatTime(record.publishedAt)}
      </Box>
    </ListItem>
  );
}

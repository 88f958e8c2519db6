import type { AnnouncementPriority } from "@atende/contracts";
import { Chip } from "@mui/material";
import { useTranslation } from "react-i18next";

/** The spec's priority colours: 1 high red, 2 medium orange, 3 low grey. */
export const ANNOUNCEMENT_PRIORITY_COLORS: Record<AnnouncementPriority, string> = {
  1: "#d32f2f",
  2: "#ed6c02",
  3: "#757575",
};

/** An announcement's priority, named and in its colour. */
export function AnnouncementPriorityChip({ priority }: { priority: AnnouncementPriority }) {
  const { t } = useTranslation();
  return (
    <Chip
      size="small"
      label={t(`announcements.priority.${priority}`)}
      data-priority={priority}
      sx={{ bgcolor: ANNOUNCEMENT_PRIORITY_COLORS[priority], color: "#fff", fontWeight: 600 }}
    />
  );
}

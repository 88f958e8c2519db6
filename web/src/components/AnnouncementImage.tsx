import type { AnnouncementDTO } from "@atende/contracts";
import { Box } from "@mui/material";
import { announcementMediaUrl } from "../api/announcements";
import { useMediaUrl } from "../hooks/useMediaUrl";

/** An announcement's picture, read with the session (the file is served to its addressees only). */
export function AnnouncementImage({
  record,
  maxHeight = 220,
}: {
  record: Pick<AnnouncementDTO, "mediaUrl" | "mediaPath" | "mediaName">;
  maxHeight?: number;
}) {
  const url = announcementMediaUrl(record);
  const { src } = useMediaUrl(url);
  if (!url || !src) return null;
  return (
    <Box
      component="img"
      src={src}
      alt={record.mediaName ?? ""}
      sx={{ display: "block", maxWidth: "100%", maxHeight, objectFit: "contain", borderRadius: 1, mt: 1 }}
    />
  );
}

import type { AnnouncementDTO } from "@atende/contracts";
import { Box } from "@mui/material";
import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { announcementMediaUrl } from "../api/announcements";
import { fetchMediaBlob, mediaKeys } from "../api/media";

/** An announcement's picture, read with the session (the file is served to its addressees only). */
export function AnnouncementImage({
  record,
  maxHeight = 220,
}: {
  record: Pick<AnnouncementDTO, "mediaUrl" | "mediaPath" | "mediaName">;
  maxHeight?: number;
}) {
  const url = announcementMediaUrl(record);
  const blob = useQuery({
    queryKey: mediaKeys.blob(url ?? ""),
    queryFn: ({ signal }) => fetchMediaBlob(url!, signal),
    enabled: Boolean(url),
    // The address changes with the file: what was read never changes.
    staleTime: "static",
    gcTime: 10 * 60_000,
    retry: 1,
    meta: { silent: true },
  });
  const [src, setSrc] = useState<string>();
  useEffect(() => {
    if (!blob.data) return;
    const created = URL.createObjectURL(blob.data);
    setSrc(created);
    return () => {
      URL.revokeObjectURL(created);
      setSrc(undefined);
    };
  }, [blob.data]);
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

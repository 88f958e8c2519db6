import type { SimulatorPhoneMessage } from "@atende/contracts";
import InsertDriveFileIcon from "@mui/icons-material/InsertDriveFileOutlined";
import { Box, CircularProgress, Link, Typography } from "@mui/material";
import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { fetchMediaBlob, simulatorKeys } from "../../api/simulator";

type Media = NonNullable<SimulatorPhoneMessage["media"]>;

/** An object URL for the blob, revoked when the blob changes or the view goes. */
function useObjectUrl(blob: Blob | undefined): string | undefined {
  const [url, setUrl] = useState<string>();
  useEffect(() => {
    if (!blob) return;
    const created = URL.createObjectURL(blob);
    setUrl(created);
    return () => {
      URL.revokeObjectURL(created);
      setUrl(undefined);
    };
  }, [blob]);
  return url;
}

/** A message's media, fetched with the session (the URL is authenticated): image, audio, video or file. */
export function MessageMedia({ media }: { media: Media }) {
  const { t } = useTranslation();
  const blob = useQuery({
    queryKey: simulatorKeys.media(media.url),
    queryFn: () => fetchMediaBlob(media.url),
    staleTime: "static",
    meta: { silent: true },
    retry: false,
  });
  const src = useObjectUrl(blob.data);

  if (blob.isError) {
    return (
      <Typography variant="caption" color="error">
        {t("simulator.mediaError")}
      </Typography>
    );
  }
  if (!src) return <CircularProgress size={20} aria-label={t("common.loading")} sx={{ m: 1 }} />;
  const type = media.mimetype.split("/")[0];
  if (type === "image") {
    return (
      <Box
        component="img"
        src={src}
        alt={media.filename}
        sx={{ display: "block", maxWidth: "100%", maxHeight: 260, borderRadius: 1.5 }}
      />
    );
  }
  if (type === "audio") {
    // The type the phone received it as: what a real phone would have to play.
    return (
      <Box>
        <Box component="audio" controls src={src} aria-label={media.filename} sx={{ maxWidth: 240 }} />
        <Typography variant="caption" component="p" sx={{ opacity: 0.7 }}>
          {media.voiceNote ? `${t("simulator.voiceNote")} · ` : ""}
          {media.mimetype}
        </Typography>
      </Box>
    );
  }
  if (type === "video") {
    return <Box component="video" controls src={src} aria-label={media.filename} sx={{ maxWidth: "100%" }} />;
  }
  return (
    <Link
      href={src}
      download={media.filename}
      aria-label={t("simulator.download", { name: media.filename })}
      sx={{ display: "flex", alignItems: "center", gap: 1, color: "inherit", wordBreak: "break-all" }}
    >
      <InsertDriveFileIcon fontSize="small" />
      {media.filename}
    </Link>
  );
}

import CloseIcon from "@mui/icons-material/Close";
import InsertDriveFileIcon from "@mui/icons-material/InsertDriveFile";
import { Box, IconButton, LinearProgress, Typography, useTheme } from "@mui/material";
import { useEffect, useMemo } from "react";
import { useTranslation } from "react-i18next";

interface QuickMessageAttachmentProps {
  file: File;
  /** The upload's share done (0 to 1) while it goes out; null before. */
  progress: number | null;
  onRemove(): void;
}

/** The attachment of the quick message picked in the chat, waiting above the box to go out with the text. */
export function QuickMessageAttachment({ file, progress, onRemove }: QuickMessageAttachmentProps) {
  const { t } = useTranslation();
  const dark = useTheme().palette.mode === "dark";
  const url = useMemo(() => (file.type.startsWith("image/") ? URL.createObjectURL(file) : null), [file]);
  useEffect(() => () => (url ? URL.revokeObjectURL(url) : undefined), [url]);
  const uploading = progress !== null;

  return (
    <Box
      role="group"
      aria-label={t("quickMessages.picker.attachment", { name: file.name })}
      sx={{
        display: "flex",
        alignItems: "center",
        gap: 1.5,
        mb: 1,
        p: 0.75,
        pr: 0.5,
        borderRadius: 1.5,
        bgcolor: dark ? "#111b21" : "#ffffff",
      }}
    >
      {url ? (
        <Box
          component="img"
          src={url}
          alt={file.name}
          sx={{ width: 48, height: 48, objectFit: "cover", borderRadius: 1, flexShrink: 0 }}
        />
      ) : (
        <InsertDriveFileIcon sx={{ fontSize: 40, color: "#8696a0", flexShrink: 0 }} aria-hidden />
      )}
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <Typography variant="body2" noWrap sx={{ fontWeight: 500 }}>
          {file.name}
        </Typography>
        {uploading ? (
          <LinearProgress
            variant="determinate"
            value={Math.round(progress * 100)}
            aria-label={t("chat.attach.uploading")}
            sx={{ mt: 0.75 }}
          />
        ) : (
          <Typography variant="caption" color="text.secondary">
            {t("quickMessages.picker.attachmentHint", { size: Math.max(1, Math.round(file.size / 1024)) })}
          </Typography>
        )}
      </Box>
      <IconButton
        size="small"
        aria-label={t("chat.attach.remove", { name: file.name })}
        onClick={onRemove}
        disabled={uploading}
      >
        <CloseIcon fontSize="small" />
      </IconButton>
    </Box>
  );
}

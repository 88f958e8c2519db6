import type { MessageDTO, TicketDTO } from "@atende/contracts";
import AddIcon from "@mui/icons-material/Add";
import CloseIcon from "@mui/icons-material/Close";
import InsertDriveFileIcon from "@mui/icons-material/InsertDriveFile";
import SendIcon from "@mui/icons-material/Send";
import {
  Box,
  Button,
  ButtonBase,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  IconButton,
  LinearProgress,
  TextField,
  Typography,
} from "@mui/material";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from "react";
import { useTranslation } from "react-i18next";
import { upsertMessage } from "../../../api/messagePages";
import { sendMedia } from "../../../api/messages";
import { toastError } from "../../../api/toast";
import { compressImages } from "./compressImage";

interface AttachmentDialogProps {
  ticket: TicketDTO;
  files: File[];
  onFilesChange(files: File[]): void;
  replyTo: MessageDTO | null;
  sign: boolean;
  onClose(): void;
  /** The files went out. */
  onSent(): void;
}

function usePreviewUrls(files: File[]): (string | null)[] {
  const urls = useMemo(
    () => files.map((file) => (/^(image|video)\//.test(file.type) ? URL.createObjectURL(file) : null)),
    [files],
  );
  useEffect(() => () => urls.forEach((url) => url && URL.revokeObjectURL(url)), [urls]);
  return urls;
}

function Preview({ file, url, large }: { file: File; url: string | null; large: boolean }) {
  const size = large
    ? { maxWidth: "100%", maxHeight: "52vh" }
    : { width: 56, height: 56, objectFit: "cover" as const };
  if (url && file.type.startsWith("image/")) {
    return (
      <Box
        component="img"
        src={url}
        alt={large ? file.name : ""}
        sx={{ display: "block", borderRadius: 1, ...size }}
      />
    );
  }
  if (url && file.type.startsWith("video/") && large) {
    return (
      <Box component="video" src={url} controls aria-label={file.name} sx={{ display: "block", ...size }} />
    );
  }
  return (
    <Box
      sx={{
        display: "flex",
        flexDirection: "column",
        alignItems: "center",
        justifyContent: "center",
        gap: 1,
        ...(large ? { py: 6 } : { width: 56, height: 56 }),
      }}
    >
      <InsertDriveFileIcon sx={{ fontSize: large ? 72 : 28, color: "#8696a0" }} aria-hidden />
      {large && (
        <>
          <Typography sx={{ fontWeight: 500, wordBreak: "break-all", textAlign: "center" }}>
            {file.name}
          </Typography>
          <Typography variant="caption" color="text.secondary">
            {(file.size / 1024).toFixed(0)} kB
          </Typography>
        </>
      )}
    </Box>
  );
}

/** The files about to go out, with a caption (on the first file), and the upload's progress. */
export function AttachmentDialog({
  ticket,
  files,
  onFilesChange,
  replyTo,
  sign,
  onClose,
  onSent,
}: AttachmentDialogProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const titleId = useId();
  const urls = usePreviewUrls(files);
  const [current, setCurrent] = useState(0);
  const [caption, setCaption] = useState("");
  const [progress, setProgress] = useState<number | null>(null);
  const more = useRef<HTMLInputElement>(null);
  const shown = Math.min(current, files.length - 1);
  const uploading = progress !== null;

  async function send() {
    if (uploading || files.length === 0) return;
    setProgress(0);
    try {
      // Photos go lighter (JPEG 0.7, 1920 px at most); the preview showed the original.
      const outgoing = await compressImages(files);
      const sent = await sendMedia(ticket.id, outgoing, {
        body: caption.trim(),
        quotedMsgId: replyTo?.id,
        signMessage: sign,
        onProgress: setProgress,
      });
      for (const message of sent) upsertMessage(queryClient, ticket.id, message);
      onSent();
    } catch (error) {
      toastError(error);
      setProgress(null);
    }
  }

  function remove(index: number) {
    const next = files.filter((_, i) => i !== index);
    if (next.length === 0) onClose();
    else onFilesChange(next);
  }

  function onKeyDown(event: KeyboardEvent) {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void send();
    }
  }

  const file = files[shown];
  return (
    <Dialog open onClose={uploading ? undefined : onClose} aria-labelledby={titleId} maxWidth="sm" fullWidth>
      <DialogTitle id={titleId} sx={{ display: "flex", alignItems: "center", gap: 1 }}>
        <Box sx={{ flex: 1 }}>{t("chat.attach.title", { count: files.length })}</Box>
        <IconButton aria-label={t("chat.close")} onClick={onClose} disabled={uploading}>
          <CloseIcon />
        </IconButton>
      </DialogTitle>
      <DialogContent dividers sx={{ display: "flex", flexDirection: "column", gap: 2 }}>
        <Box
          sx={{
            display: "flex",
            justifyContent: "center",
            alignItems: "center",
            minHeight: 200,
            bgcolor: "action.hover",
            borderRadius: 1,
            p: 1,
          }}
        >
          {file && <Preview file={file} url={urls[shown] ?? null} large />}
        </Box>
        <Box
          role="list"
          aria-label={t("chat.attach.files")}
          sx={{ display: "flex", gap: 1, flexWrap: "wrap" }}
        >
          {files.map((f, index) => (
            <Box key={`${f.name}-${index}`} role="listitem" sx={{ position: "relative" }}>
              <ButtonBase
                onClick={() => setCurrent(index)}
                aria-label={f.name}
                aria-current={index === shown}
                sx={{
                  borderRadius: 1,
                  border: 2,
                  borderColor: index === shown ? "primary.main" : "transparent",
                  overflow: "hidden",
                  bgcolor: "action.hover",
                }}
              >
                <Preview file={f} url={urls[index] ?? null} large={false} />
              </ButtonBase>
              {!uploading && (
                <IconButton
                  size="small"
                  aria-label={t("chat.attach.remove", { name: f.name })}
                  onClick={() => remove(index)}
                  sx={{
                    position: "absolute",
                    top: -8,
                    right: -8,
                    p: 0.25,
                    bgcolor: "background.paper",
                    boxShadow: 1,
                    "&:hover": { bgcolor: "background.paper" },
                  }}
                >
                  <CloseIcon sx={{ fontSize: 14 }} />
                </IconButton>
              )}
            </Box>
          ))}
          {!uploading && (
            <ButtonBase
              onClick={() => more.current?.click()}
              aria-label={t("chat.attach.addMore")}
              sx={{
                width: 60,
                height: 60,
                borderRadius: 1,
                border: 2,
                borderStyle: "dashed",
                borderColor: "divider",
              }}
            >
              <AddIcon />
            </ButtonBase>
          )}
        </Box>
        <TextField
          label={t("chat.attach.caption")}
          value={caption}
          onChange={(event) => setCaption(event.target.value)}
          onKeyDown={onKeyDown}
          disabled={uploading}
          multiline
          maxRows={4}
          autoFocus
          fullWidth
        />
        {uploading && (
          <Box>
            <LinearProgress
              variant="determinate"
              value={Math.round(progress * 100)}
              aria-label={t("chat.attach.uploading")}
            />
            <Typography variant="caption" color="text.secondary">
              {t("chat.attach.progress", { percent: Math.round(progress * 100) })}
            </Typography>
          </Box>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={uploading}>
          {t("common.cancel")}
        </Button>
        <Button variant="contained" endIcon={<SendIcon />} loading={uploading} onClick={() => void send()}>
          {t("chat.input.send")}
        </Button>
      </DialogActions>
      <input
        ref={more}
        type="file"
        multiple
        hidden
        onChange={(event) => {
          const added = [...(event.target.files ?? [])];
          event.target.value = "";
          if (added.length) onFilesChange([...files, ...added]);
        }}
      />
    </Dialog>
  );
}

import AttachFileIcon from "@mui/icons-material/AttachFile";
import DeleteIcon from "@mui/icons-material/DeleteOutlineOutlined";
import InsertDriveFileIcon from "@mui/icons-material/InsertDriveFileOutlined";
import { Box, Button, IconButton, Link, Stack, Tooltip, Typography } from "@mui/material";
import { useRef } from "react";
import { fetchMediaBlob } from "../../../api/media";
import { toastError } from "../../../api/toast";

interface MediaFieldProps {
  label: string;
  /** The stored file: its media path and original name. */
  mediaPath: string | null;
  mediaName: string | null;
  /** A file chosen but not yet sent (a queue not yet saved). */
  pendingName?: string | null;
  texts: { none: string; attach: string; replace: string; remove: string; pending?: string };
  busy?: boolean;
  onPick(file: File): void;
  onRemove(): void;
}

/** Opens a stored media file in a new tab (media URLs need the session, so through a blob). */
async function openMedia(path: string) {
  try {
    const blob = await fetchMediaBlob(`/media/${path}`);
    window.open(URL.createObjectURL(blob), "_blank", "noopener");
  } catch (error) {
    toastError(error);
  }
}

/** An attachment: its name (opens it), a button to choose a file and one to remove it. */
export function MediaField({
  label,
  mediaPath,
  mediaName,
  pendingName,
  texts,
  busy = false,
  onPick,
  onRemove,
}: MediaFieldProps) {
  const input = useRef<HTMLInputElement>(null);
  const hasFile = Boolean(mediaPath || pendingName);
  return (
    <Box>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 0.5 }}>
        {label}
      </Typography>
      <Stack direction="row" spacing={1} sx={{ alignItems: "center", flexWrap: "wrap" }}>
        <InsertDriveFileIcon fontSize="small" color={hasFile ? "primary" : "disabled"} />
        {mediaPath ? (
          <Link component="button" type="button" onClick={() => void openMedia(mediaPath)}>
            {mediaName ?? mediaPath}
          </Link>
        ) : (
          <Typography variant="body2" color="text.secondary">
            {pendingName && texts.pending ? texts.pending : texts.none}
          </Typography>
        )}
        <Box sx={{ flex: 1 }} />
        <Button
          size="small"
          startIcon={<AttachFileIcon />}
          loading={busy}
          loadingPosition="start"
          onClick={() => input.current?.click()}
        >
          {hasFile ? texts.replace : texts.attach}
        </Button>
        {hasFile && (
          <Tooltip title={texts.remove}>
            <IconButton size="small" aria-label={texts.remove} onClick={onRemove} disabled={busy}>
              <DeleteIcon fontSize="small" />
            </IconButton>
          </Tooltip>
        )}
        <input
          ref={input}
          type="file"
          hidden
          aria-label={texts.attach}
          onChange={(event) => {
            const file = event.target.files?.[0];
            event.target.value = "";
            if (file) onPick(file);
          }}
        />
      </Stack>
    </Box>
  );
}

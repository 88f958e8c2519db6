import AttachFileIcon from "@mui/icons-material/AttachFile";
import SendIcon from "@mui/icons-material/Send";
import { Box, Chip, IconButton, TextField, Tooltip } from "@mui/material";
import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";

interface ChatComposerProps {
  /** Sends the text and files; resolves once sent (the composer clears then). */
  onSend(text: string, files: File[]): Promise<boolean>;
}

/**
 * The message box: Enter sends, Shift+Enter breaks the line, files attach with the clip; an empty
 * message is not sent, and the box keeps the focus after sending.
 */
export function ChatComposer({ onSend }: ChatComposerProps) {
  const { t } = useTranslation();
  const [text, setText] = useState("");
  const [files, setFiles] = useState<File[]>([]);
  const [sending, setSending] = useState(false);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const empty = !text.trim() && files.length === 0;

  async function send() {
    if (empty || sending) return;
    setSending(true);
    const sent = await onSend(text, files);
    setSending(false);
    if (sent) {
      setText("");
      setFiles([]);
    }
    inputRef.current?.focus();
  }

  return (
    <Box sx={{ borderTop: 1, borderColor: "divider", bgcolor: "background.paper", p: 1 }}>
      {files.length > 0 && (
        <Box sx={{ display: "flex", flexWrap: "wrap", gap: 0.5, mb: 1 }}>
          {files.map((file, i) => (
            <Chip
              key={`${file.name}-${i}`}
              label={file.name}
              size="small"
              onDelete={() => setFiles((all) => all.filter((_, j) => j !== i))}
              aria-label={file.name}
              title={t("internalChat.removeAttachment", { name: file.name })}
            />
          ))}
        </Box>
      )}
      <Box sx={{ display: "flex", alignItems: "flex-end", gap: 0.5 }}>
        <input
          ref={fileRef}
          type="file"
          multiple
          hidden
          data-testid="chat-file-input"
          onChange={(e) => {
            const chosen = [...(e.target.files ?? [])];
            if (chosen.length) setFiles((all) => [...all, ...chosen]);
            e.target.value = "";
            inputRef.current?.focus();
          }}
        />
        <Tooltip title={t("internalChat.attach")}>
          <IconButton aria-label={t("internalChat.attach")} onClick={() => fileRef.current?.click()}>
            <AttachFileIcon />
          </IconButton>
        </Tooltip>
        <TextField
          inputRef={inputRef}
          multiline
          maxRows={6}
          fullWidth
          size="small"
          placeholder={t("internalChat.placeholder")}
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              void send();
            }
          }}
          slotProps={{
            htmlInput: { "aria-label": t("internalChat.placeholder"), title: t("internalChat.inputHint") },
          }}
          autoFocus
        />
        <Tooltip title={t("internalChat.send")}>
          <span>
            <IconButton
              color="primary"
              aria-label={t("internalChat.send")}
              disabled={empty || sending}
              onClick={() => void send()}
            >
              <SendIcon />
            </IconButton>
          </span>
        </Tooltip>
      </Box>
    </Box>
  );
}

import { LIMITS, type SimulatorPhoneMessage } from "@atende/contracts";
import AttachFileIcon from "@mui/icons-material/AttachFile";
import CloseIcon from "@mui/icons-material/Close";
import ContactPageIcon from "@mui/icons-material/ContactPageOutlined";
import DescriptionIcon from "@mui/icons-material/DescriptionOutlined";
import HeadphonesIcon from "@mui/icons-material/HeadphonesOutlined";
import ImageIcon from "@mui/icons-material/ImageOutlined";
import LocationOnIcon from "@mui/icons-material/LocationOnOutlined";
import SendIcon from "@mui/icons-material/Send";
import {
  Box,
  IconButton,
  InputBase,
  ListItemIcon,
  ListItemText,
  Menu,
  MenuItem,
  Typography,
  useTheme,
} from "@mui/material";
import { useRef, useState, type ChangeEvent, type KeyboardEvent } from "react";
import { useTranslation } from "react-i18next";
import { snippet } from "./MessageBubble";

export type FileKind = "image" | "audio" | "document";

const ACCEPT: Record<FileKind, string> = {
  image: "image/*",
  audio: "audio/*",
  document: "*/*",
};

const FILE_ICONS = { image: ImageIcon, audio: HeadphonesIcon, document: DescriptionIcon };

interface ComposerProps {
  disabled: boolean;
  sending: boolean;
  /** Text already in the box (the body of a message being edited). */
  initialText?: string;
  replyTo: SimulatorPhoneMessage | null;
  editing: SimulatorPhoneMessage | null;
  businessName: string;
  onCancel(): void;
  /** Resolves true when the text went out (the box is then emptied). */
  onSendText(text: string): Promise<boolean>;
  onSendFile(file: File, caption: string): Promise<boolean>;
  onLocation(): void;
  onContact(): void;
}

/** The phone's message box: Enter sends, Shift+Enter breaks the line; attachments in a menu. */
export function Composer(props: ComposerProps) {
  const { disabled, sending, initialText = "", replyTo, editing, businessName } = props;
  const { t } = useTranslation();
  const theme = useTheme();
  const dark = theme.palette.mode === "dark";
  const [text, setText] = useState(initialText);
  const [menuAnchor, setMenuAnchor] = useState<HTMLElement | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const context = editing ?? replyTo;

  async function submit() {
    if (disabled || !text.trim()) return;
    // The box is free for the next message at once; a send that fails gives its text back.
    const sent = text;
    setText("");
    if (!(await props.onSendText(sent))) setText((now) => (now === "" ? sent : now));
  }

  function onKeyDown(event: KeyboardEvent) {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void submit();
    } else if (event.key === "Escape" && context) {
      props.onCancel();
    }
  }

  function pickFile(kind: FileKind) {
    setMenuAnchor(null);
    const input = fileInput.current;
    if (!input) return;
    input.accept = ACCEPT[kind];
    input.click();
  }

  async function onFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = "";
    if (file && (await props.onSendFile(file, text))) setText("");
  }

  return (
    <Box sx={{ bgcolor: dark ? "#202c33" : "#f0f2f5", px: 1, py: 0.75 }}>
      {context && (
        <Box
          sx={{
            display: "flex",
            alignItems: "center",
            gap: 1,
            mb: 0.75,
            px: 1,
            py: 0.5,
            borderLeft: 4,
            borderColor: editing ? "warning.main" : "#06cf9c",
            borderRadius: 1,
            bgcolor: dark ? "#111b21" : "#fff",
          }}
        >
          <Box sx={{ flex: 1, minWidth: 0 }}>
            <Typography variant="caption" sx={{ fontWeight: 600, display: "block" }}>
              {editing
                ? t("simulator.editing")
                : `${t("simulator.replyingTo")} ${context.direction === "in" ? t("simulator.you") : businessName}`}
            </Typography>
            <Typography variant="caption" noWrap sx={{ display: "block", opacity: 0.8 }}>
              {snippet(context)}
            </Typography>
          </Box>
          <IconButton
            size="small"
            aria-label={t(editing ? "simulator.cancelEdit" : "simulator.cancelReply")}
            onClick={props.onCancel}
          >
            <CloseIcon fontSize="small" />
          </IconButton>
        </Box>
      )}
      <Box sx={{ display: "flex", alignItems: "flex-end", gap: 0.5 }}>
        {!editing && (
          <IconButton
            aria-label={t("simulator.attach")}
            aria-haspopup="menu"
            disabled={disabled || sending}
            onClick={(event) => setMenuAnchor(event.currentTarget)}
          >
            <AttachFileIcon sx={{ transform: "rotate(45deg)" }} />
          </IconButton>
        )}
        <InputBase
          multiline
          maxRows={LIMITS.inputMaxRows}
          value={text}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={onKeyDown}
          disabled={disabled}
          placeholder={t("simulator.message")}
          slotProps={{ input: { "aria-label": t("simulator.message") } }}
          autoFocus={Boolean(context)}
          sx={{ flex: 1, bgcolor: dark ? "#2a3942" : "#fff", borderRadius: 2, px: 1.5, py: 1 }}
        />
        <IconButton
          color="primary"
          aria-label={t("simulator.send")}
          disabled={disabled || !text.trim()}
          onClick={() => void submit()}
        >
          <SendIcon />
        </IconButton>
      </Box>
      <input ref={fileInput} type="file" hidden onChange={(e) => void onFile(e)} />
      <Menu anchorEl={menuAnchor} open={menuAnchor !== null} onClose={() => setMenuAnchor(null)}>
        {(["image", "audio", "document"] as const).map((kind) => {
          const Icon = FILE_ICONS[kind];
          return (
            <MenuItem key={kind} onClick={() => pickFile(kind)}>
              <ListItemIcon>
                <Icon fontSize="small" />
              </ListItemIcon>
              <ListItemText>{t(`simulator.${kind}`)}</ListItemText>
            </MenuItem>
          );
        })}
        <MenuItem
          onClick={() => {
            setMenuAnchor(null);
            props.onLocation();
          }}
        >
          <ListItemIcon>
            <LocationOnIcon fontSize="small" />
          </ListItemIcon>
          <ListItemText>{t("simulator.location")}</ListItemText>
        </MenuItem>
        <MenuItem
          onClick={() => {
            setMenuAnchor(null);
            props.onContact();
          }}
        >
          <ListItemIcon>
            <ContactPageIcon fontSize="small" />
          </ListItemIcon>
          <ListItemText>{t("simulator.contact")}</ListItemText>
        </MenuItem>
      </Menu>
    </Box>
  );
}

import type { MessageDTO } from "@atende/contracts";
import ContentCopyIcon from "@mui/icons-material/ContentCopy";
import DeleteIcon from "@mui/icons-material/DeleteOutlined";
import EditIcon from "@mui/icons-material/EditOutlined";
import ExpandMoreIcon from "@mui/icons-material/ExpandMore";
import InsertEmoticonIcon from "@mui/icons-material/InsertEmoticonOutlined";
import ReplyIcon from "@mui/icons-material/Reply";
import ForwardIcon from "@mui/icons-material/Shortcut";
import { Box, IconButton, ListItemIcon, ListItemText, Menu, MenuItem } from "@mui/material";
import { useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "../../../api/toast";
import { bodyIsContent } from "./MessageMedia";

/** What can be done to a message; an action left out is not offered. */
export interface MessageHandlers {
  reply?(message: MessageDTO): void;
  react(message: MessageDTO, emoji: string): void;
  edit?(message: MessageDTO): void;
  remove?(message: MessageDTO): void;
  forward?(message: MessageDTO): void;
  retry(message: MessageDTO): void;
}

interface MessageMenuProps {
  message: MessageDTO;
  /** Sent by the logged-in user: edit and delete are offered. */
  mine: boolean;
  handlers: MessageHandlers;
  onReact(): void;
  /** The bubble's colour, behind the menu button so it does not sit on the text. */
  background: string;
}

/** The bubble's drop-down (WhatsApp's chevron): reply, react, copy, forward, edit, delete. */
export function MessageMenu({ message, mine, handlers, onReact, background }: MessageMenuProps) {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  if (message.isDeleted) return null;
  const text = bodyIsContent(message) ? "" : message.body.trim();
  const editable = mine && text !== "" && Boolean(handlers.edit);

  const items: { key: string; icon: ReactNode; label: string; run(): void }[] = [];
  if (handlers.reply) {
    items.push({
      key: "reply",
      icon: <ReplyIcon />,
      label: t("chat.menu.reply"),
      run: () => handlers.reply?.(message),
    });
  }
  items.push({ key: "react", icon: <InsertEmoticonIcon />, label: t("chat.menu.react"), run: onReact });
  if (text && navigator.clipboard) {
    items.push({
      key: "copy",
      icon: <ContentCopyIcon />,
      label: t("chat.menu.copy"),
      run: () => {
        void navigator.clipboard.writeText(text).then(() => toast(t("chat.menu.copied"), "success"));
      },
    });
  }
  // A missed call or an unreadable message has nothing to forward.
  if (handlers.forward && message.mediaType !== "call_log" && message.mediaType !== "unreadable") {
    items.push({
      key: "forward",
      icon: <ForwardIcon />,
      label: t("chat.menu.forward"),
      run: () => handlers.forward?.(message),
    });
  }
  if (editable) {
    items.push({
      key: "edit",
      icon: <EditIcon />,
      label: t("chat.menu.edit"),
      run: () => handlers.edit?.(message),
    });
  }
  if (mine && handlers.remove) {
    items.push({
      key: "delete",
      icon: <DeleteIcon />,
      label: t("chat.menu.delete"),
      run: () => handlers.remove?.(message),
    });
  }

  return (
    <>
      <Box
        className="bubble-action"
        sx={{
          position: "absolute",
          top: 2,
          right: 2,
          opacity: anchor ? 1 : 0,
          transition: "opacity 120ms",
          borderRadius: "50%",
          background: `radial-gradient(circle, ${background} 55%, transparent 75%)`,
        }}
      >
        <IconButton
          size="small"
          aria-label={t("chat.menu.open")}
          aria-haspopup="menu"
          aria-expanded={anchor !== null}
          onClick={(event) => setAnchor(event.currentTarget)}
          sx={{ p: 0.25, color: "inherit", opacity: 0.7 }}
        >
          <ExpandMoreIcon fontSize="small" />
        </IconButton>
      </Box>
      {/* Mounted only while open: every bubble on screen has a menu, and a closed one still costs. */}
      {anchor && (
        <Menu
          anchorEl={anchor}
          open
          onClose={() => setAnchor(null)}
          anchorOrigin={{ vertical: "bottom", horizontal: "right" }}
          transformOrigin={{ vertical: "top", horizontal: "right" }}
        >
          {items.map((item) => (
            <MenuItem
              key={item.key}
              onClick={() => {
                setAnchor(null);
                item.run();
              }}
              sx={{ minWidth: 180 }}
            >
              <ListItemIcon sx={{ "& svg": { fontSize: 20 } }}>{item.icon}</ListItemIcon>
              <ListItemText>{item.label}</ListItemText>
            </MenuItem>
          ))}
        </Menu>
      )}
    </>
  );
}

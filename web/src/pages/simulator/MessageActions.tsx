import type { SimulatorPhoneMessage } from "@atende/contracts";
import DeleteIcon from "@mui/icons-material/DeleteOutlineOutlined";
import EditIcon from "@mui/icons-material/EditOutlined";
import ExpandMoreIcon from "@mui/icons-material/ExpandMore";
import ReplyIcon from "@mui/icons-material/Reply";
import { IconButton, ListItemIcon, ListItemText, Menu, MenuItem } from "@mui/material";
import { useState } from "react";
import { useTranslation } from "react-i18next";

export const QUICK_REACTIONS = ["👍", "❤️", "😂", "😮", "😢", "🙏"] as const;

export interface MessageActionHandlers {
  reply(message: SimulatorPhoneMessage): void;
  react(message: SimulatorPhoneMessage, emoji: string): void;
  edit(message: SimulatorPhoneMessage): void;
  revoke(message: SimulatorPhoneMessage): void;
}

interface MessageActionsProps {
  message: SimulatorPhoneMessage;
  handlers: MessageActionHandlers;
}

/** Reply and react on any message; edit and delete for everyone on the phone's own text messages. */
export function MessageActions({ message, handlers }: MessageActionsProps) {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const own = message.direction === "in";
  const editable = own && !message.media && message.body.trim() !== "";

  function run(action: () => void) {
    setAnchor(null);
    action();
  }

  return (
    <>
      <IconButton
        size="small"
        aria-label={t("simulator.messageActions")}
        aria-haspopup="menu"
        onClick={(event) => setAnchor(event.currentTarget)}
        sx={{ p: 0.25, color: "inherit", opacity: 0.6, "&:hover, &:focus-visible": { opacity: 1 } }}
      >
        <ExpandMoreIcon fontSize="small" />
      </IconButton>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        {QUICK_REACTIONS.map((emoji) => (
          <MenuItem
            key={emoji}
            aria-label={t("simulator.react", { emoji })}
            onClick={() => run(() => handlers.react(message, emoji))}
            sx={{ display: "inline-flex", fontSize: 20, minWidth: 0, px: 1, borderRadius: "50%" }}
          >
            {emoji}
          </MenuItem>
        ))}
        <MenuItem onClick={() => run(() => handlers.reply(message))}>
          <ListItemIcon>
            <ReplyIcon fontSize="small" />
          </ListItemIcon>
          <ListItemText>{t("simulator.reply")}</ListItemText>
        </MenuItem>
        {editable && (
          <MenuItem onClick={() => run(() => handlers.edit(message))}>
            <ListItemIcon>
              <EditIcon fontSize="small" />
            </ListItemIcon>
            <ListItemText>{t("simulator.edit")}</ListItemText>
          </MenuItem>
        )}
        {own && (
          <MenuItem onClick={() => run(() => handlers.revoke(message))}>
            <ListItemIcon>
              <DeleteIcon fontSize="small" />
            </ListItemIcon>
            <ListItemText>{t("simulator.delete")}</ListItemText>
          </MenuItem>
        )}
      </Menu>
    </>
  );
}

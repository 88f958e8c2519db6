import ForumIcon from "@mui/icons-material/ForumOutlined";
import {
  Badge,
  Box,
  Button,
  Divider,
  IconButton,
  List,
  ListItem,
  ListItemButton,
  ListItemText,
  Popover,
  Tooltip,
  Typography,
} from "@mui/material";
import { unreadsOf } from "@atende/contracts";
import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router-dom";
import { unreadTotal, useRecentChats } from "../api/chats";
import { useSessionUser } from "../auth/AuthContext";

const SHOWN = 8;

/** The top bar's chat button: the unread total as its badge, the recent chats in a popover. */
export function ChatPopover() {
  const { t } = useTranslation();
  const user = useSessionUser();
  const navigate = useNavigate();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const titleId = useId();
  const chats = useRecentChats(true);
  const unread = unreadTotal(chats.data, user.id);
  const recent = (chats.data?.pages ?? []).flatMap((p) => p.records).slice(0, SHOWN);

  const open = (to: string) => {
    setAnchor(null);
    void navigate(to);
  };

  return (
    <>
      <Tooltip title={t("internalChat.popoverTitle")}>
        <IconButton
          color="inherit"
          // The name holds the count the badge shows (axe's label-content-name-mismatch), and an
          // empty badge draws no hidden "0" for it to find.
          aria-label={
            unread
              ? `${t("internalChat.popoverTitle")}, ${t("internalChat.unread", { count: unread })}`
              : t("internalChat.popoverTitle")
          }
          aria-haspopup="dialog"
          onClick={(e) => setAnchor(e.currentTarget)}
        >
          <Badge color="error" badgeContent={unread || undefined} max={99} data-testid="chat-unread-badge">
            <ForumIcon />
          </Badge>
        </IconButton>
      </Tooltip>
      <Popover
        open={anchor !== null}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: "bottom", horizontal: "right" }}
        transformOrigin={{ vertical: "top", horizontal: "right" }}
        slotProps={{
          paper: { role: "dialog", "aria-labelledby": titleId, sx: { width: 340, maxWidth: "95vw" } },
        }}
      >
        <Typography id={titleId} variant="subtitle1" sx={{ px: 2, pt: 1.5, pb: 1, fontWeight: 600 }}>
          {t("internalChat.popoverTitle")}
        </Typography>
        <Divider />
        {recent.length === 0 ? (
          <Typography color="text.secondary" sx={{ px: 2, py: 2 }}>
            {t("internalChat.popoverEmpty")}
          </Typography>
        ) : (
          <List dense disablePadding sx={{ maxHeight: 400, overflowY: "auto" }}>
            {recent.map((chat) => {
              const count = unreadsOf(chat, user.id);
              return (
                <ListItem key={chat.id} disablePadding>
                  <ListItemButton onClick={() => open(`/chats/${chat.uuid}`)}>
                    <ListItemText
                      primary={chat.title}
                      secondary={chat.lastMessage || "\u00a0"}
                      slotProps={{
                        primary: { noWrap: true, sx: { fontWeight: count ? 600 : undefined } },
                        secondary: { noWrap: true },
                      }}
                    />
                    {count > 0 && (
                      <Badge
                        color="error"
                        badgeContent={count}
                        aria-label={t("internalChat.unread", { count })}
                        sx={{ ml: 2, mr: 1 }}
                      />
                    )}
                  </ListItemButton>
                </ListItem>
              );
            })}
          </List>
        )}
        <Divider />
        <Box sx={{ display: "flex", justifyContent: "flex-end", p: 1 }}>
          <Button size="small" onClick={() => open("/chats")}>
            {t("internalChat.seeAll")}
          </Button>
        </Box>
      </Popover>
    </>
  );
}

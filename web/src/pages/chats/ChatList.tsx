import type { ChatDTO } from "@atende/contracts";
import { unreadsOf } from "@atende/contracts";
import AddCommentIcon from "@mui/icons-material/AddCommentOutlined";
import SearchIcon from "@mui/icons-material/Search";
import {
  Avatar,
  Badge,
  Box,
  CircularProgress,
  IconButton,
  InputAdornment,
  List,
  ListItemAvatar,
  ListItem,
  ListItemButton,
  ListItemText,
  TextField,
  Tooltip,
  Typography,
} from "@mui/material";
import { useTranslation } from "react-i18next";
import type { SearchableList } from "../../hooks/useSearchableList";
import { formatTime } from "../../i18n/format";

interface ChatListProps {
  list: SearchableList<ChatDTO>;
  meId: number;
  selectedUuid: string | undefined;
  onSelect(chat: ChatDTO): void;
  onNew(): void;
}

const LOAD_MORE_WITHIN_PX = 100;

/** The user's chats by latest activity, searchable, with each one's unread count. */
export function ChatList({ list, meId, selectedUuid, onSelect, onNew }: ChatListProps) {
  const { t } = useTranslation();
  return (
    <Box sx={{ display: "flex", flexDirection: "column", minHeight: 0, flex: 1 }}>
      <Box sx={{ display: "flex", gap: 1, p: 1.5, alignItems: "center" }}>
        <TextField
          size="small"
          fullWidth
          placeholder={t("internalChat.search")}
          value={list.searchText}
          onChange={(e) => list.setSearchText(e.target.value)}
          slotProps={{
            htmlInput: { "aria-label": t("internalChat.search") },
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <SearchIcon fontSize="small" />
                </InputAdornment>
              ),
            },
          }}
        />
        <Tooltip title={t("internalChat.newChat")}>
          <IconButton color="primary" aria-label={t("internalChat.newChat")} onClick={onNew}>
            <AddCommentIcon />
          </IconButton>
        </Tooltip>
      </Box>
      <Box
        sx={{ flex: 1, overflowY: "auto" }}
        onScroll={(e) => {
          const el = e.currentTarget;
          if (el.scrollHeight - el.scrollTop - el.clientHeight < LOAD_MORE_WITHIN_PX) list.loadMore();
        }}
      >
        {/* A <ul> holds only its <li> chats: the loader and the empty sentence come after it. */}
        <List dense aria-label={t("internalChat.tabs.chats")} sx={{ py: 0 }}>
          {list.items.map((chat) => {
            const unread = unreadsOf(chat, meId);
            const selected = chat.uuid === selectedUuid;
            return (
              <ListItem key={chat.id} disablePadding>
                <ListItemButton
                  selected={selected}
                  aria-current={selected ? "true" : undefined}
                  onClick={() => onSelect(chat)}
                  sx={{ py: 1 }}
                >
                  <ListItemAvatar sx={{ minWidth: 52 }}>
                    <Avatar sx={{ width: 40, height: 40, bgcolor: "primary.main" }}>
                      {chat.title.trim().charAt(0).toUpperCase()}
                    </Avatar>
                  </ListItemAvatar>
                  <ListItemText
                    primary={chat.title}
                    secondary={chat.lastMessage || t("internalChat.members", { count: chat.users.length })}
                    slotProps={{
                      primary: { noWrap: true, sx: { fontWeight: unread ? 600 : 400 } },
                      secondary: { noWrap: true },
                    }}
                  />
                  <Box
                    sx={{ display: "flex", flexDirection: "column", alignItems: "flex-end", ml: 1, gap: 0.5 }}
                  >
                    <Typography variant="caption" color="text.secondary">
                      {formatTime(chat.updatedAt)}
                    </Typography>
                    {unread > 0 && (
                      <Badge
                        color="success"
                        badgeContent={unread}
                        aria-label={t("internalChat.unread", { count: unread })}
                        sx={{ mr: 1.25, mb: 0.75 }}
                      />
                    )}
                  </Box>
                </ListItemButton>
              </ListItem>
            );
          })}
        </List>
        {list.loading && (
          <Box sx={{ display: "flex", justifyContent: "center", py: 2 }}>
            <CircularProgress size={24} aria-label={t("common.loading")} />
          </Box>
        )}
        {!list.loading && list.items.length === 0 && (
          <Typography color="text.secondary" sx={{ p: 2 }}>
            {list.search ? t("internalChat.noMatch") : t("internalChat.empty")}
          </Typography>
        )}
      </Box>
    </Box>
  );
}

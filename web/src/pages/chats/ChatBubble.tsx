import type { ChatMessageDTO } from "@atende/contracts";
import ConfirmationNumberIcon from "@mui/icons-material/ConfirmationNumberOutlined";
import DownloadIcon from "@mui/icons-material/Download";
import InsertDriveFileIcon from "@mui/icons-material/InsertDriveFileOutlined";
import { Box, Chip, IconButton, Typography, useTheme } from "@mui/material";
import { memo } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router-dom";
import { MessageText } from "../../components/MessageText";
import { useMediaUrl } from "../../hooks/useMediaUrl";
import { formatTime } from "../../i18n/format";
import { CHAT_COLOURS } from "../tickets/chat/BubbleParts";

/** An attachment: a picture shown in the bubble, any other file as its name with a download button. */
function Attachment({ message }: { message: ChatMessageDTO }) {
  const { t } = useTranslation();
  const { src } = useMediaUrl(message.mediaPath ? `/media/${message.mediaPath}` : null);
  const name = message.mediaName ?? t("internalChat.attachment");
  if (message.mediaType?.startsWith("image/"))
    return (
      <Box
        component="img"
        src={src}
        alt={name}
        sx={{
          display: "block",
          maxWidth: 280,
          maxHeight: 280,
          minHeight: 60,
          borderRadius: 1,
          mb: 0.5,
          bgcolor: "action.hover",
        }}
      />
    );
  return (
    <Box
      sx={{
        display: "flex",
        alignItems: "center",
        gap: 1,
        mb: 0.5,
        p: 1,
        borderRadius: 1,
        bgcolor: "action.hover",
      }}
    >
      <InsertDriveFileIcon fontSize="small" aria-hidden />
      <Typography variant="body2" sx={{ flex: 1, wordBreak: "break-all" }}>
        {name}
      </Typography>
      <IconButton
        size="small"
        href={src ?? ""}
        download={name}
        disabled={!src}
        aria-label={t("internalChat.download", { name })}
      >
        <DownloadIcon fontSize="small" />
      </IconButton>
    </Box>
  );
}

interface ChatBubbleProps {
  message: ChatMessageDTO;
  mine: boolean;
  /** First of a run from one sender: shows the sender's name (others' messages) and a gap above. */
  firstOfGroup: boolean;
}

/** One message of the internal chat, as a WhatsApp bubble: own ones right and green. */
export const ChatBubble = memo(function ChatBubble({ message, mine, firstOfGroup }: ChatBubbleProps) {
  const { t } = useTranslation();
  const theme = useTheme();
  const navigate = useNavigate();
  const mode = theme.palette.mode;
  return (
    <Box
      sx={{
        display: "flex",
        justifyContent: mine ? "flex-end" : "flex-start",
        px: { xs: 1, sm: 3 },
        mt: firstOfGroup ? 1 : 0.25,
      }}
      data-testid="chat-message"
    >
      <Box
        sx={{
          maxWidth: { xs: "85%", md: "65%" },
          px: 1,
          pt: 0.5,
          pb: 0.25,
          borderRadius: 2,
          boxShadow: "0 1px 0.5px rgba(11,20,26,0.13)",
          bgcolor: mine ? CHAT_COLOURS.own[mode] : CHAT_COLOURS.received[mode],
          color: CHAT_COLOURS.text[mode],
        }}
      >
        {!mine && firstOfGroup && (
          <Typography variant="caption" component="p" sx={{ fontWeight: 600, color: "primary.main" }}>
            {message.sender?.name ?? "—"}
          </Typography>
        )}
        {message.mediaPath && <Attachment message={message} />}
        {message.message && (
          <Typography variant="body2" component="p" sx={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}>
            <MessageText text={message.message} />
          </Typography>
        )}
        {message.ticket && (
          <Chip
            icon={<ConfirmationNumberIcon />}
            size="small"
            clickable
            label={`${t("internalChat.ticketLink")} #${message.ticket.id}`}
            aria-label={t("internalChat.openTicket")}
            onClick={() => void navigate(`/tickets/${message.ticket!.uuid}`)}
            sx={{ mt: 0.5 }}
          />
        )}
        <Typography
          variant="caption"
          component="p"
          sx={{ textAlign: "right", color: CHAT_COLOURS.meta[mode], fontSize: "0.6875rem", lineHeight: 1.6 }}
        >
          {formatTime(message.createdAt)}
        </Typography>
      </Box>
    </Box>
  );
});

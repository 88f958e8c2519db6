import type { SimulatorPhoneMessage } from "@atende/contracts";
import BlockIcon from "@mui/icons-material/Block";
import CallIcon from "@mui/icons-material/Call";
import PhoneMissedIcon from "@mui/icons-material/PhoneMissed";
import VideocamIcon from "@mui/icons-material/Videocam";
import LocationOnIcon from "@mui/icons-material/LocationOnOutlined";
import PersonIcon from "@mui/icons-material/PersonOutlined";
import { Box, Typography, useTheme } from "@mui/material";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { MessageText } from "../../components/MessageText";
import { formatTime } from "../../i18n/format";
import { MessageActions, type MessageActionHandlers } from "./MessageActions";
import { MessageMedia } from "./MessageMedia";
import { Ticks } from "./Ticks";

/** WhatsApp's own bubble colours, light and dark. */
export const BUBBLE = {
  own: { light: "#d9fdd3", dark: "#005c4b" },
  received: { light: "#ffffff", dark: "#202c33" },
};

/** What a quote shows of the message replied to. */
export function snippet(message: SimulatorPhoneMessage): string {
  return message.body || message.media?.filename || message.kind;
}

interface MessageBubbleProps {
  message: SimulatorPhoneMessage;
  /** The message replied to, when it is in the conversation. */
  quoted: SimulatorPhoneMessage | undefined;
  /** Reactions to this message (emoji, and whether this phone sent them). */
  reactions: { emoji: string; own: boolean }[];
  businessName: string;
  handlers: MessageActionHandlers;
}

/** One message as the phone shows it: "in" (sent by this phone) on the right, "out" on the left. */
export function MessageBubble({ message, quoted, reactions, businessName, handlers }: MessageBubbleProps) {
  const { t } = useTranslation();
  const theme = useTheme();
  const mode = theme.palette.mode;
  const own = message.direction === "in";
  const bg = own ? BUBBLE.own[mode] : BUBBLE.received[mode];

  const isCall = message.kind === "call" || message.kind === "call_rejected";
  let content: ReactNode;
  if (isCall) {
    // A call this phone placed: declined by the business (setting `call` disabled), or unanswered.
    const rejected = message.kind === "call_rejected";
    const Icon = rejected ? PhoneMissedIcon : /vídeo/i.test(message.body) ? VideocamIcon : CallIcon;
    content = (
      <Box sx={{ display: "flex", alignItems: "center", gap: 1, py: 0.5 }}>
        <Icon fontSize="small" aria-hidden sx={{ color: rejected ? "error.main" : "inherit" }} />
        <Box>
          <Typography variant="body2">{message.body}</Typography>
          {rejected && (
            <Typography variant="caption" sx={{ opacity: 0.75 }}>
              {t("simulator.callRejected")}
            </Typography>
          )}
        </Box>
      </Box>
    );
  } else if (message.isDeleted) {
    content = (
      <Typography variant="body2" sx={{ fontStyle: "italic", opacity: 0.7, display: "flex", gap: 0.5 }}>
        <BlockIcon fontSize="small" aria-hidden />
        {t("simulator.deleted")}
      </Typography>
    );
  } else {
    const icon =
      message.kind === "location" ? (
        <LocationOnIcon fontSize="small" aria-hidden sx={{ verticalAlign: "middle", mr: 0.5 }} />
      ) : message.kind === "contact" ? (
        <PersonIcon fontSize="small" aria-hidden sx={{ verticalAlign: "middle", mr: 0.5 }} />
      ) : null;
    content = (
      <>
        {message.media && <MessageMedia media={message.media} />}
        {message.body && (
          <Typography variant="body2" component="p" sx={{ whiteSpace: "pre-wrap", wordBreak: "break-word" }}>
            {icon}
            <MessageText text={message.body} />
          </Typography>
        )}
      </>
    );
  }

  return (
    <Box
      role="listitem"
      sx={{
        alignSelf: own ? "flex-end" : "flex-start",
        maxWidth: "82%",
        mb: reactions.length > 0 ? 2 : 0.5,
        position: "relative",
      }}
    >
      <Box
        sx={{
          bgcolor: bg,
          color: mode === "dark" ? "#e9edef" : "#111b21",
          borderRadius: 2,
          borderTopRightRadius: own ? 0 : undefined,
          borderTopLeftRadius: own ? undefined : 0,
          px: 1,
          py: 0.5,
          boxShadow: "0 1px 0.5px rgba(11,20,26,.13)",
        }}
      >
        <Box sx={{ display: "flex", alignItems: "flex-start", gap: 0.5 }}>
          <Box sx={{ flex: 1, minWidth: 0 }}>
            {quoted && !message.isDeleted && (
              <Box
                sx={{
                  borderLeft: 4,
                  borderColor: quoted.direction === "in" ? "#06cf9c" : "#53bdeb",
                  bgcolor: "rgba(0,0,0,0.06)",
                  borderRadius: 1,
                  px: 1,
                  py: 0.25,
                  mb: 0.5,
                }}
              >
                <Typography variant="caption" sx={{ fontWeight: 600, display: "block" }}>
                  {quoted.direction === "in" ? t("simulator.you") : businessName}
                </Typography>
                <Typography variant="caption" noWrap sx={{ display: "block", opacity: 0.8 }}>
                  {quoted.isDeleted ? t("simulator.deleted") : snippet(quoted)}
                </Typography>
              </Box>
            )}
            {content}
          </Box>
          {!message.isDeleted && !isCall && <MessageActions message={message} handlers={handlers} />}
        </Box>
        <Box
          sx={{ display: "flex", justifyContent: "flex-end", alignItems: "center", gap: 0.5, opacity: 0.75 }}
        >
          <Typography variant="caption" sx={{ fontSize: 11 }}>
            {formatTime(message.createdAt)}
          </Typography>
          {own && !isCall && <Ticks ack={message.ack} />}
        </Box>
      </Box>
      {reactions.length > 0 && (
        <Box
          sx={{
            position: "absolute",
            bottom: -14,
            [own ? "right" : "left"]: 8,
            bgcolor: bg,
            borderRadius: 3,
            px: 0.75,
            fontSize: 14,
            boxShadow: 1,
          }}
        >
          {reactions.map((reaction) => reaction.emoji).join("")}
        </Box>
      )}
    </Box>
  );
}

import type { MessageDTO } from "@atende/contracts";
import InsertEmoticonIcon from "@mui/icons-material/InsertEmoticonOutlined";
import { Box, IconButton, Tooltip, Typography, useTheme } from "@mui/material";
import { useTranslation } from "react-i18next";
import { EMOJI_FONT } from "./emoji";
import { MessageText } from "../../../components/MessageText";
import { messagePreview } from "./preview";

/** WhatsApp's colours, light and dark. */
export const CHAT_COLOURS = {
  own: { light: "#d9fdd3", dark: "#005c4b" },
  received: { light: "#ffffff", dark: "#202c33" },
  text: { light: "#111b21", dark: "#e9edef" },
  meta: { light: "#667781", dark: "#ffffff99" },
  quoteOwn: "#06cf9c",
  quoteContact: "#53bdeb",
};

/** The message replied to, as a tinted block at the top of the bubble; clicking it jumps there. */
export function Quote({
  message,
  contactName,
  onClick,
}: {
  message: NonNullable<MessageDTO["quotedMsg"]>;
  contactName: string;
  onClick?(): void;
}) {
  const { t } = useTranslation();
  const colour = message.fromMe ? CHAT_COLOURS.quoteOwn : CHAT_COLOURS.quoteContact;
  return (
    <Box
      component={onClick ? "button" : "div"}
      type={onClick ? "button" : undefined}
      onClick={onClick}
      aria-label={onClick ? t("chat.quote.goTo") : undefined}
      sx={{
        display: "block",
        width: "100%",
        textAlign: "left",
        font: "inherit",
        color: "inherit",
        border: 0,
        borderLeft: 4,
        borderColor: colour,
        bgcolor: "rgba(11,20,26,0.06)",
        borderRadius: 1,
        px: 1,
        py: 0.5,
        mb: 0.5,
        cursor: onClick ? "pointer" : "default",
        "&:hover": onClick ? { bgcolor: "rgba(11,20,26,0.1)" } : undefined,
      }}
    >
      <Typography
        variant="caption"
        component="span"
        sx={{ display: "block", fontWeight: 600, color: colour }}
      >
        {message.fromMe ? t("chat.you") : contactName}
      </Typography>
      <Typography
        variant="caption"
        component="span"
        sx={{
          display: "-webkit-box",
          WebkitLineClamp: 2,
          WebkitBoxOrient: "vertical",
          overflow: "hidden",
          opacity: 0.8,
          wordBreak: "break-word",
        }}
      >
        <MessageText text={messagePreview(t, message)} />
      </Typography>
    </Box>
  );
}

/** The smiley beside a bubble (shown on hover or focus) that opens the reaction picker. */
export function ReactButton({ onOpen }: { onOpen(anchor: HTMLElement): void }) {
  const { t } = useTranslation();
  return (
    <IconButton
      className="bubble-action"
      size="small"
      aria-label={t("chat.react.title")}
      onClick={(event) => onOpen(event.currentTarget)}
      sx={{
        opacity: 0,
        transition: "opacity 120ms",
        bgcolor: "rgba(11,20,26,0.08)",
        "&:focus-visible": { opacity: 1 },
      }}
    >
      <InsertEmoticonIcon fontSize="small" />
    </IconButton>
  );
}

/** The reactions under a bubble, as one small pill; clicking it opens the picker. */
export function ReactionSummary({
  reactions,
  contactName,
  own,
  onClick,
}: {
  reactions: MessageDTO["reactions"];
  contactName: string;
  own: boolean;
  onClick?(): void;
}) {
  const { t } = useTranslation();
  const mode = useTheme().palette.mode;
  return (
    <Tooltip title={reactions.map((r) => `${r.emoji} ${r.fromMe ? t("chat.you") : contactName}`).join(" · ")}>
      <Box
        component={onClick ? "button" : "span"}
        type={onClick ? "button" : undefined}
        aria-label={t("chat.react.summary", {
          emoji: reactions.map((r) => r.emoji).join(" "),
        })}
        onClick={onClick}
        sx={{
          position: "absolute",
          bottom: -18,
          [own ? "right" : "left"]: 8,
          font: "inherit",
          display: "inline-flex",
          gap: 0.25,
          px: 0.75,
          py: 0.125,
          fontSize: 14,
          fontFamily: EMOJI_FONT,
          lineHeight: "20px",
          color: "inherit",
          borderRadius: 3,
          border: 1,
          borderColor: mode === "dark" ? "#0b141a" : "#f0f2f5",
          bgcolor: mode === "dark" ? "#202c33" : "#fff",
          boxShadow: "0 1px 2px rgba(11,20,26,.2)",
          cursor: onClick ? "pointer" : "default",
        }}
      >
        {reactions.map((r) => (
          <span key={r.fromMe ? "me" : "contact"}>{r.emoji}</span>
        ))}
      </Box>
    </Tooltip>
  );
}

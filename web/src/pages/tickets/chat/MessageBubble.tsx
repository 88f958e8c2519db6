import type { MessageDTO } from "@atende/contracts";
import BlockIcon from "@mui/icons-material/Block";
import ForwardIcon from "@mui/icons-material/Shortcut";
import { Box, Button, Checkbox, Typography, useTheme } from "@mui/material";
import { memo, useRef, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { formatTime } from "../../../i18n/format";
import { CHAT_COLOURS, Quote, ReactButton, ReactionSummary } from "./BubbleParts";
import { EmojiPicker } from "./EmojiPicker";
import { MessageMenu, type MessageHandlers } from "./MessageMenu";
import { bodyIsContent, MessageMedia } from "./MessageMedia";
import { MessageText } from "../../../components/MessageText";
import { messagePreview } from "./preview";
import { Ticks } from "./Ticks";
import { TemplateChoiceButton, sendErrorText } from "./CloudTemplates";

export interface MessageBubbleProps {
  message: MessageDTO;
  /** First of a run from one sender: draws the tail and a gap above. */
  firstOfGroup: boolean;
  contactName: string;
  /** The logged-in user's id: only their own messages may be edited or deleted. */
  meId: number;
  /** Absent in a read-only view (no menu, no double-click reply). */
  handlers?: MessageHandlers;
  /** Forward mode: each message has a checkbox. */
  selecting?: boolean;
  selected?: boolean;
  onToggleSelect?(message: MessageDTO): void;
  highlighted?: boolean;
  onQuoteClick?(messageId: number): void;
}

function BubbleComponent(props: MessageBubbleProps) {
  const { message, firstOfGroup, contactName, meId, handlers, selecting = false, selected = false } = props;
  const { t } = useTranslation();
  const mode = useTheme().palette.mode;
  const bubbleRef = useRef<HTMLDivElement>(null);
  const [pickerAnchor, setPickerAnchor] = useState<HTMLElement | null>(null);
  const own = message.fromMe;
  const mine = own && message.userId === meId && !message.isBot;
  const bg = own ? CHAT_COLOURS.own[mode] : CHAT_COLOURS.received[mode];
  const failed = Boolean(message.sendError);
  const sendUnknown = message.sendError?.startsWith("ERR_WAPP_SEND_UNKNOWN") ?? false;
  const ownReaction = message.reactions.find((r) => r.fromMe)?.emoji;
  const hasText = !message.isDeleted && !bodyIsContent(message) && message.body.trim() !== "";
  const mediaOnly =
    !message.isDeleted && !hasText && ["image", "sticker", "video"].includes(message.mediaType);
  const canSelect =
    !message.isDeleted && message.mediaType !== "call_log" && message.mediaType !== "unreadable";
  const canReply = Boolean(handlers?.reply) && !selecting && !message.isDeleted;

  function react(emoji: string) {
    setPickerAnchor(null);
    // Picking one's current reaction again takes it back.
    handlers?.react(message, emoji === ownReaction ? "" : emoji);
  }

  const meta = (
    <Box
      component="span"
      sx={{
        display: "inline-flex",
        alignItems: "center",
        gap: 0.5,
        fontSize: 11,
        lineHeight: "15px",
        whiteSpace: "nowrap",
        color: mediaOnly ? "#fff" : CHAT_COLOURS.meta[mode],
      }}
    >
      {message.isEdited && !message.isDeleted && <span>{t("chat.edited")}</span>}
      <time dateTime={message.createdAt}>{formatTime(message.createdAt)}</time>
      {own && !message.isDeleted && <Ticks ack={message.ack} failed={failed} />}
    </Box>
  );

  let content: ReactNode;
  if (message.isDeleted) {
    content = (
      <Typography
        variant="body2"
        sx={{
          fontStyle: "italic",
          color: CHAT_COLOURS.meta[mode],
          display: "flex",
          alignItems: "center",
          gap: 0.5,
        }}
      >
        <BlockIcon sx={{ fontSize: 16 }} aria-hidden />
        {t(own ? "chat.deleted.own" : "chat.deleted.byContact")}
        {/* room for the time */}
        <Box component="span" aria-hidden sx={{ display: "inline-block", width: 44 }} />
      </Typography>
    );
  } else {
    content = (
      <>
        <MessageMedia message={message} />
        {hasText && (
          <Typography
            variant="body2"
            component="div"
            sx={{
              whiteSpace: "pre-wrap",
              wordBreak: "break-word",
              fontSize: 14.2,
              lineHeight: "19px",
              pt: 0.25,
            }}
          >
            <MessageText text={message.body} />
            {/* room for the time and ticks on the last line, as WhatsApp does */}
            <Box
              component="span"
              aria-hidden
              sx={{
                display: "inline-block",
                width: (message.isEdited ? 52 : 0) + (own ? 62 : 40),
                height: 10,
              }}
            />
          </Typography>
        )}
      </>
    );
  }

  const tail = firstOfGroup
    ? {
        "&::before": {
          content: '""',
          position: "absolute",
          top: 0,
          [own ? "right" : "left"]: -8,
          width: 8,
          height: 13,
          bgcolor: bg,
          clipPath: own ? "polygon(0 0, 100% 0, 0 100%)" : "polygon(0 0, 100% 0, 100% 100%)",
        },
      }
    : {};

  return (
    <Box
      data-message-id={message.id}
      onClick={selecting && canSelect ? () => props.onToggleSelect?.(message) : undefined}
      sx={{
        display: "flex",
        alignItems: "center",
        justifyContent: own ? "flex-end" : "flex-start",
        gap: 1,
        mt: firstOfGroup ? 1.25 : 0.25,
        mb: failed ? 3 : message.reactions.length > 0 && !message.isDeleted ? 2 : 0,
        px: { xs: 1.5, md: "6%" },
        pl: selecting ? 6 : undefined,
        position: "relative",
        cursor: selecting && canSelect ? "pointer" : undefined,
        bgcolor: selected ? "rgba(0,168,132,0.14)" : props.highlighted ? "rgba(0,168,132,0.22)" : undefined,
        transition: "background-color 600ms",
        "&:hover .bubble-action, &:focus-within .bubble-action": { opacity: 1 },
      }}
    >
      {selecting && canSelect && (
        <Checkbox
          checked={selected}
          onClick={(event) => event.stopPropagation()}
          onChange={() => props.onToggleSelect?.(message)}
          slotProps={{
            input: { "aria-label": t("chat.forward.select", { text: messagePreview(t, message) }) },
          }}
          sx={{ position: "absolute", left: 4, p: 0.5 }}
        />
      )}
      {own && handlers && !selecting && !message.isDeleted && (
        <ReactButton onOpen={(el) => setPickerAnchor(el)} />
      )}
      <Box
        ref={bubbleRef}
        role="article"
        aria-label={t(own ? "chat.message.sent" : "chat.message.received")}
        onDoubleClick={canReply ? () => handlers?.reply?.(message) : undefined}
        // A double click replies; it should not also select a word.
        onMouseDown={canReply ? (event) => event.detail > 1 && event.preventDefault() : undefined}
        sx={{
          position: "relative",
          maxWidth: { xs: "85%", md: "65%" },
          minWidth: 80,
          bgcolor: bg,
          color: CHAT_COLOURS.text[mode],
          borderRadius: "7.5px",
          borderTopLeftRadius: firstOfGroup && !own ? 0 : "7.5px",
          borderTopRightRadius: firstOfGroup && own ? 0 : "7.5px",
          boxShadow: "0 1px 0.5px rgba(11,20,26,.13)",
          px: mediaOnly ? 0.5 : 1,
          pt: mediaOnly ? 0.5 : 0.75,
          pb: mediaOnly ? 0.5 : 1,
          ...tail,
        }}
      >
        {message.isForwarded && !message.isDeleted && (
          <Typography
            variant="caption"
            sx={{
              display: "flex",
              alignItems: "center",
              gap: 0.5,
              fontStyle: "italic",
              color: CHAT_COLOURS.meta[mode],
            }}
          >
            <ForwardIcon sx={{ fontSize: 14 }} aria-hidden />
            {t("chat.forwarded")}
          </Typography>
        )}
        {message.quotedMsg && !message.isDeleted && (
          <Quote
            message={message.quotedMsg}
            contactName={contactName}
            onClick={props.onQuoteClick ? () => props.onQuoteClick?.(message.quotedMsg!.id) : undefined}
          />
        )}
        {content}
        <Box
          sx={
            mediaOnly
              ? {
                  position: "absolute",
                  right: 10,
                  bottom: 8,
                  px: 0.75,
                  borderRadius: 2,
                  background: "rgba(11,20,26,0.45)",
                }
              : { position: "absolute", right: 7, bottom: 3 }
          }
        >
          {meta}
        </Box>
        {!hasText && !mediaOnly && !message.isDeleted && <Box sx={{ height: 14 }} />}
        {handlers && !selecting && (
          <MessageMenu
            message={message}
            mine={mine}
            handlers={handlers}
            onReact={() => setPickerAnchor(bubbleRef.current)}
            background={bg}
          />
        )}
        {message.reactions.length > 0 && !message.isDeleted && (
          <ReactionSummary
            reactions={message.reactions}
            contactName={contactName}
            own={own}
            onClick={handlers ? () => setPickerAnchor(bubbleRef.current) : undefined}
          />
        )}
      </Box>
      {!own && handlers && !selecting && !message.isDeleted && (
        <ReactButton onOpen={(el) => setPickerAnchor(el)} />
      )}
      {failed && (
        <Box
          sx={{
            position: "absolute",
            right: { xs: 12, md: "6%" },
            bottom: -22,
            display: "flex",
            gap: 0.5,
            alignItems: "center",
          }}
        >
          <Typography variant="caption" color="error" title={sendErrorText(message.sendError, t)}>
            {t(sendUnknown ? "cloud.unknown" : "chat.notSent")}
          </Typography>
          {/* A send that may have gone out waits for WhatsApp's word, never a blind second send. */}
          {handlers && !sendUnknown && (
            <Button
              size="small"
              color="error"
              onClick={() => handlers.retry(message)}
              sx={{ py: 0, minWidth: 0 }}
            >
              {t("chat.retry")}
            </Button>
          )}
          {handlers && <TemplateChoiceButton message={message} />}
        </Box>
      )}
      {handlers && pickerAnchor && (
        <EmojiPicker
          quick
          anchorEl={pickerAnchor}
          onClose={() => setPickerAnchor(null)}
          onPick={react}
          selected={ownReaction}
        />
      )}
    </Box>
  );
}

export const MessageBubble = memo(BubbleComponent);

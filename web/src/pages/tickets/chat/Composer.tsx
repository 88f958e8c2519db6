import { type AssistStyle, LIMITS, type MessageDTO, type TicketDTO } from "@atende/contracts";
import AttachFileIcon from "@mui/icons-material/AttachFile";
import CloseIcon from "@mui/icons-material/Close";
import DriveFileRenameOutlineIcon from "@mui/icons-material/DriveFileRenameOutline";
import InsertEmoticonIcon from "@mui/icons-material/InsertEmoticonOutlined";
import SendIcon from "@mui/icons-material/Send";
import UndoIcon from "@mui/icons-material/Undo";
import CheckIcon from "@mui/icons-material/Check";
import { Box, Button, IconButton, InputBase, Tooltip, Typography, useTheme } from "@mui/material";
import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState, type ClipboardEvent, type KeyboardEvent } from "react";
import { useTranslation } from "react-i18next";
import { upsertMessage } from "../../../api/messagePages";
import { rephraseText, suggestReply } from "../../../api/assist";
import { editMessage, sendMedia, sendText } from "../../../api/messages";
import { toastError } from "../../../api/toast";
import { QuickMessagePicker, type QuickMessageChoice } from "../../../components/QuickMessagePicker";
import { QuickMessageAttachment } from "../../../components/QuickMessageAttachment";
import { CHAT_COLOURS } from "./BubbleParts";
import { EmojiPicker } from "./EmojiPicker";
import { splitSignature } from "./conversation";
import { MessageText } from "../../../components/MessageText";
import { messagePreview } from "./preview";
import { VoiceRecorder } from "./VoiceRecorder";
import { AssistMenu } from "./AssistMenu";
import { useAssistAvailable } from "./useAssist";

interface ComposerProps {
  ticket: TicketDTO;
  contactName: string;
  replyTo: MessageDTO | null;
  editing: MessageDTO | null;
  /** Ends the reply or the edit. */
  onCancel(): void;
  sign: boolean;
  onSignChange(sign: boolean): void;
  onAttach(files: File[]): void;
  onAccept(): void;
  onReopen(): void;
  busy: boolean;
}

const draftKey = (ticketId: number) => `chat-draft-${ticketId}`;

function readDraft(ticketId: number): string {
  try {
    return sessionStorage.getItem(draftKey(ticketId)) ?? "";
  } catch {
    return "";
  }
}

function saveDraft(ticketId: number, text: string) {
  try {
    if (text) sessionStorage.setItem(draftKey(ticketId), text);
    else sessionStorage.removeItem(draftKey(ticketId));
  } catch {
    // no storage: the draft lives while the page does
  }
}

/** Why the box is closed, and the one action that opens it. */
function ClosedBar({
  ticket,
  onAccept,
  onReopen,
  busy,
}: Pick<ComposerProps, "ticket" | "onAccept" | "onReopen" | "busy">) {
  const { t } = useTranslation();
  const pending = ticket.status === "pending";
  return (
    <Box
      sx={{
        display: "flex",
        alignItems: "center",
        justifyContent: "center",
        gap: 2,
        py: 1.5,
        px: 2,
        flexWrap: "wrap",
      }}
    >
      <Typography variant="body2" color="text.secondary">
        {t(pending ? "chat.input.pendingHint" : "chat.input.closedHint")}
      </Typography>
      <Button variant="contained" size="small" loading={busy} onClick={pending ? onAccept : onReopen}>
        {t(pending ? "chat.actions.accept" : "chat.actions.reopen")}
      </Button>
    </Box>
  );
}

/**
 * The message box: Enter sends, Shift+Enter breaks the line, Esc drops the reply or the edit. Files
 * come from the clip, a paste or a drop and go through the attachment preview. Typing '/' lists the
 * quick messages: one picked fills the box, and its attachment waits above the box to go out with
 * the text as its caption. An empty box offers the microphone in the send button's place. Where the
 * company's AI can help, its menu suggests a reply or rephrases the text: the answer replaces the
 * box's text for the agent to edit (the text before it can be brought back); nothing is sent.
 */
export function Composer(props: ComposerProps) {
  const { ticket, contactName, replyTo, editing, onCancel, sign, onSignChange, onAttach } = props;
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const mode = useTheme().palette.mode;
  const [text, setText] = useState(() =>
    editing ? splitSignature(editing.body).text : readDraft(ticket.id),
  );
  const [sending, setSending] = useState(false);
  const [emojiAnchor, setEmojiAnchor] = useState<HTMLElement | null>(null);
  const input = useRef<HTMLTextAreaElement>(null);
  // The '/' list listens to the box's keys, so it needs the element itself, not a ref.
  const [inputElement, setInputElement] = useState<HTMLTextAreaElement | null>(null);
  const inputRef = useCallback((element: HTMLTextAreaElement | null) => {
    input.current = element;
    setInputElement(element);
  }, []);
  // A picked quick message's attachment; an edit has none (the box is remounted for an edit).
  const [quickFile, setQuickFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  // A voice note being recorded or sent: its bar takes the box's place.
  const [recording, setRecording] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const context = editing ?? replyTo;
  const attachment = editing ? null : quickFile;
  const assistOn = useAssistAvailable() && !editing;
  const [assisting, setAssisting] = useState(false);
  // The box's text before the AI's answer replaced it (Undo), until the message goes.
  const [beforeAssist, setBeforeAssist] = useState<string | null>(null);

  // Choosing a message to reply to puts the cursor in the box.
  useEffect(() => {
    if (replyTo) input.current?.focus();
  }, [replyTo]);

  if (ticket.status !== "open") {
    return (
      <Box
        component="footer"
        sx={{ bgcolor: mode === "dark" ? "#202c33" : "#f0f2f5", borderTop: 1, borderColor: "divider" }}
      >
        <ClosedBar ticket={ticket} onAccept={props.onAccept} onReopen={props.onReopen} busy={props.busy} />
      </Box>
    );
  }

  function change(next: string) {
    setText(next);
    if (!editing) saveDraft(ticket.id, next);
  }

  async function submit() {
    const body = text;
    if (sending || assisting || (!body.trim() && !attachment)) return;
    setSending(true);
    setBeforeAssist(null);
    try {
      if (attachment) {
        // The quick message's attachment, with the box's text as its caption.
        setProgress(0);
        const sent = await sendMedia(ticket.id, [attachment], {
          body: body.trim(),
          quotedMsgId: replyTo?.id,
          signMessage: sign,
          onProgress: setProgress,
        });
        for (const message of sent) upsertMessage(queryClient, ticket.id, message);
        setQuickFile(null);
        change("");
        onCancel();
      } else if (editing) {
        const { signature, text: before } = splitSignature(editing.body);
        if (body.trim() !== before.trim()) {
          upsertMessage(queryClient, ticket.id, await editMessage(editing.id, signature + body.trim()));
        }
        onCancel();
      } else {
        // The box empties at once; the text comes back if the send is refused.
        change("");
        const quoted = replyTo;
        onCancel();
        try {
          upsertMessage(
            queryClient,
            ticket.id,
            await sendText(ticket.id, body, { quotedMsgId: quoted?.id, signMessage: sign }),
          );
        } catch (error) {
          change(body);
          throw error;
        }
      }
    } catch (error) {
      toastError(error);
    } finally {
      setSending(false);
      setProgress(null);
      input.current?.focus();
    }
  }

  /** Asks the AI; its answer replaces the text (kept for Undo). A failure leaves the text as it was. */
  async function assist(ask: () => Promise<{ text: string }>) {
    if (assisting) return;
    const before = text;
    setAssisting(true);
    try {
      const { text: answer } = await ask();
      setBeforeAssist(before);
      change(answer);
      requestAnimationFrame(() => {
        const el = input.current;
        el?.focus();
        el?.setSelectionRange(answer.length, answer.length);
      });
    } catch (error) {
      toastError(error);
    } finally {
      setAssisting(false);
    }
  }

  function undoAssist() {
    if (beforeAssist === null) return;
    change(beforeAssist);
    setBeforeAssist(null);
    input.current?.focus();
  }

  function pickQuickMessage({ message, file }: QuickMessageChoice) {
    change(message);
    setQuickFile(file);
    requestAnimationFrame(() => {
      const el = input.current;
      el?.focus();
      el?.setSelectionRange(message.length, message.length);
    });
  }

  function onKeyDown(event: KeyboardEvent) {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void submit();
    } else if (event.key === "Escape" && context) {
      event.preventDefault();
      onCancel();
    }
  }

  function onPaste(event: ClipboardEvent) {
    const files = [...event.clipboardData.files];
    if (files.length > 0 && !editing) {
      event.preventDefault();
      onAttach(files);
    }
  }

  function insertEmoji(emoji: string) {
    const el = input.current;
    const start = el?.selectionStart ?? text.length;
    const end = el?.selectionEnd ?? text.length;
    change(text.slice(0, start) + emoji + text.slice(end));
    setEmojiAnchor(null);
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(start + emoji.length, start + emoji.length);
    });
  }

  const offerMicrophone = !editing && !text.trim() && !attachment;
  const barColour = editing ? "#ffb74d" : replyTo?.fromMe ? CHAT_COLOURS.quoteOwn : CHAT_COLOURS.quoteContact;

  return (
    <Box
      component="footer"
      sx={{ bgcolor: mode === "dark" ? "#202c33" : "#f0f2f5", px: { xs: 1, sm: 2 }, py: 1 }}
    >
      {context && (
        <Box
          role="status"
          sx={{
            display: "flex",
            alignItems: "center",
            gap: 1,
            mb: 1,
            pl: 1.5,
            pr: 0.5,
            py: 0.75,
            borderLeft: 4,
            borderColor: barColour,
            borderRadius: 1.5,
            bgcolor: mode === "dark" ? "#111b21" : "#ffffff",
          }}
        >
          <Box sx={{ flex: 1, minWidth: 0 }}>
            <Typography variant="caption" sx={{ display: "block", fontWeight: 600, color: barColour }}>
              {editing
                ? t("chat.input.editing")
                : t("chat.input.replyingTo", { name: replyTo?.fromMe ? t("chat.you") : contactName })}
            </Typography>
            <Typography variant="body2" noWrap sx={{ opacity: 0.8 }}>
              <MessageText text={messagePreview(t, context)} />
            </Typography>
          </Box>
          <IconButton
            size="small"
            aria-label={t(editing ? "chat.input.cancelEdit" : "chat.input.cancelReply")}
            onClick={onCancel}
          >
            <CloseIcon fontSize="small" />
          </IconButton>
        </Box>
      )}
      {assistOn && (assisting || beforeAssist !== null) && (
        <Box role="status" sx={{ display: "flex", alignItems: "center", gap: 1, mb: 0.5, px: 1 }}>
          <Typography variant="caption" color="text.secondary" sx={{ flex: 1 }}>
            {t(assisting ? "assist.working" : "assist.undoHint")}
          </Typography>
          {!assisting && (
            <Button size="small" startIcon={<UndoIcon />} onClick={undoAssist}>
              {t("assist.undo")}
            </Button>
          )}
        </Box>
      )}
      {attachment && (
        <QuickMessageAttachment file={attachment} progress={progress} onRemove={() => setQuickFile(null)} />
      )}
      <Box sx={{ display: "flex", alignItems: "flex-end", gap: 0.5 }}>
        {!recording && (
          <>
            <IconButton
              aria-label={t("chat.emoji.title")}
              onClick={(event) => setEmojiAnchor(event.currentTarget)}
            >
              <InsertEmoticonIcon />
            </IconButton>
            {!editing && (
              <IconButton aria-label={t("chat.input.attach")} onClick={() => fileInput.current?.click()}>
                <AttachFileIcon sx={{ transform: "rotate(45deg)" }} />
              </IconButton>
            )}
            {assistOn && (
              <AssistMenu
                busy={assisting}
                hasText={text.trim() !== ""}
                onSuggest={() => void assist(() => suggestReply(ticket.id))}
                onRephrase={(style: AssistStyle) => void assist(() => rephraseText(ticket.id, text, style))}
              />
            )}
            <InputBase
              inputRef={inputRef}
              multiline
              maxRows={LIMITS.inputMaxRows}
              value={text}
              onChange={(event) => change(event.target.value)}
              onKeyDown={onKeyDown}
              onPaste={onPaste}
              readOnly={assisting}
              placeholder={t("chat.input.placeholder")}
              autoFocus
              slotProps={{ input: { "aria-label": t("chat.input.label") } }}
              sx={{
                flex: 1,
                minWidth: 0,
                bgcolor: mode === "dark" ? "#2a3942" : "#ffffff",
                borderRadius: 2,
                px: 1.5,
                py: 1.1,
                fontSize: 15,
              }}
            />
            {!editing && (
              <Tooltip title={t(sign ? "chat.input.signOn" : "chat.input.signOff")}>
                <IconButton
                  aria-label={t("chat.input.sign")}
                  aria-pressed={sign}
                  color={sign ? "primary" : "default"}
                  onClick={() => onSignChange(!sign)}
                >
                  <DriveFileRenameOutlineIcon />
                </IconButton>
              </Tooltip>
            )}
          </>
        )}
        {offerMicrophone || recording ? (
          <VoiceRecorder
            ticketId={ticket.id}
            quotedMsgId={replyTo?.id}
            sign={sign}
            onActiveChange={setRecording}
            onSent={onCancel}
          />
        ) : (
          <IconButton
            color="primary"
            aria-label={t(editing ? "chat.input.saveEdit" : "chat.input.send")}
            disabled={sending || (!text.trim() && !attachment)}
            onClick={() => void submit()}
          >
            {editing ? <CheckIcon /> : <SendIcon />}
          </IconButton>
        )}
      </Box>
      <input
        ref={fileInput}
        type="file"
        multiple
        hidden
        aria-label={t("chat.input.attach")}
        onChange={(event) => {
          const files = [...(event.target.files ?? [])];
          event.target.value = "";
          if (files.length) onAttach(files);
        }}
      />
      {!editing && <QuickMessagePicker text={text} inputElement={inputElement} onSelect={pickQuickMessage} />}
      <EmojiPicker anchorEl={emojiAnchor} onClose={() => setEmojiAnchor(null)} onPick={insertEmoji} />
    </Box>
  );
}

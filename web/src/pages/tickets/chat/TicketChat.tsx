import { LIMITS, type MessageDTO, type TicketDTO, type TicketUpdateInput } from "@atende/contracts";
import CloseIcon from "@mui/icons-material/Close";
import ForwardIcon from "@mui/icons-material/Shortcut";
import UploadFileIcon from "@mui/icons-material/UploadFile";
import { Box, Button, IconButton, Skeleton, Typography, useTheme } from "@mui/material";
import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo, useRef, useState, type DragEvent, type RefObject } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router-dom";
import { upsertMessage } from "../../../api/messagePages";
import { deleteMessage, reactToMessage, retryMessage } from "../../../api/messages";
import { chatBoxRoom, useJoinRoom } from "../../../api/SocketProvider";
import { updateTicket } from "../../../api/tickets";
import { useTicketLive } from "../../../api/ticketsLive";
import { toast, toastError } from "../../../api/toast";
import { useSessionUser } from "../../../auth/AuthContext";
import { ConfirmationDialog } from "../../../components/ConfirmationDialog";
import { AttachmentDialog } from "./AttachmentDialog";
import { ChatHeader, type TicketAction } from "./ChatHeader";
import { CloudWindowBanner } from "./CloudTemplates";
import { Composer } from "./Composer";
import { ContactDrawer } from "./ContactDrawer";
import { ForwardDialog } from "./ForwardDialog";
import type { MessageHandlers } from "./MessageMenu";
import { MessageList, WALLPAPER } from "./MessageList";
import { TagEditor } from "./TagEditor";
import { TransferDialog } from "./TransferDialog";
import { ResolveDialog } from "./ResolveDialog";
import { useAssistAvailable } from "./useAssist";
import { useConversation } from "./useConversation";
import { useSignPreference } from "./useSignPreference";
import { useTicketByUuid } from "./useTicketByUuid";

/** The chat window of one ticket, opened by its uuid. */
export function TicketChat({ uuid }: { uuid: string }) {
  // A new ticket starts from a clean window: no reply, selection or dialog carries over.
  return <TicketChatLoader key={uuid} uuid={uuid} />;
}

function TicketChatLoader({ uuid }: { uuid: string }) {
  const { t } = useTranslation();
  const ticket = useTicketByUuid(uuid);
  if (ticket.data) return <ChatWindow ticket={ticket.data} />;
  if (ticket.isError && !ticket.refused) {
    return (
      <Box
        sx={{
          flex: 1,
          display: "flex",
          flexDirection: "column",
          alignItems: "center",
          justifyContent: "center",
          gap: 2,
        }}
      >
        <Typography>{t("chat.loadError")}</Typography>
        <Button variant="outlined" onClick={() => void ticket.refetch()}>
          {t("chat.tryAgain")}
        </Button>
      </Box>
    );
  }
  return <ChatSkeleton />;
}

function ChatSkeleton() {
  const { t } = useTranslation();
  const mode = useTheme().palette.mode;
  return (
    <Box
      aria-busy
      aria-label={t("common.loading")}
      sx={{ flex: 1, display: "flex", flexDirection: "column", minHeight: 0 }}
    >
      <Box
        sx={{
          display: "flex",
          alignItems: "center",
          gap: 1.5,
          px: 2,
          minHeight: 60,
          borderBottom: 1,
          borderColor: "divider",
        }}
      >
        <Skeleton variant="circular" width={40} height={40} />
        <Box sx={{ flex: 1 }}>
          <Skeleton width="30%" />
          <Skeleton width="45%" height={14} />
        </Box>
      </Box>
      <Box sx={{ flex: 1, ...WALLPAPER[mode] }} />
    </Box>
  );
}

function statusChange(action: TicketAction, meId: number): TicketUpdateInput {
  switch (action) {
    case "accept":
    case "reopen":
      return { status: "open", userId: meId };
    case "return":
      return { status: "pending", userId: null };
    case "resolve":
      return { status: "closed" };
  }
}

/** Chat (at least 420 px) plus the contact panel. */
const INLINE_DRAWER_MIN_PX = 420 + LIMITS.contactDrawerWidth;

function useElementWidth(ref: RefObject<HTMLElement | null>): number {
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const observer = new ResizeObserver(([entry]) => setWidth(entry?.contentRect.width ?? 0));
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}

function ChatWindow({ ticket }: { ticket: TicketDTO }) {
  const { t } = useTranslation();
  const theme = useTheme();
  const root = useRef<HTMLDivElement>(null);
  // The contact panel sits beside the chat when there is room for both, else over it.
  const inlineDrawer = useElementWidth(root) >= INLINE_DRAWER_MIN_PX;
  const column = useRef<HTMLElement>(null);
  const columnWidth = useElementWidth(column);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const me = useSessionUser();
  const conversation = useConversation(ticket, { meId: me.id });
  useJoinRoom(chatBoxRoom(ticket.id));
  const { presence, store } = useTicketLive(ticket, () => {
    toast(t("chat.ticketDeleted"));
    navigate("/tickets", { replace: true });
  });
  const [sign, setSign] = useSignPreference();
  const [replyTo, setReplyTo] = useState<MessageDTO | null>(null);
  const [editing, setEditing] = useState<MessageDTO | null>(null);
  const [deleting, setDeleting] = useState<MessageDTO | null>(null);
  const [selection, setSelection] = useState<ReadonlySet<number> | null>(null);
  const [forwarding, setForwarding] = useState<number[] | null>(null);
  const [files, setFiles] = useState<File[] | null>(null);
  const [dragging, setDragging] = useState(false);
  const [contactOpen, setContactOpen] = useState(false);
  const [transferOpen, setTransferOpen] = useState(false);
  const [busy, setBusy] = useState<TicketAction | null>(null);
  // Where the AI can summarize, resolving asks first for a note (ResolveDialog).
  const assistOn = useAssistAvailable();
  const [resolveOpen, setResolveOpen] = useState(false);
  const open = ticket.status === "open";

  function left(updated: TicketDTO, action: "return" | "resolve") {
    store(updated);
    toast(t(action === "resolve" ? "chat.actions.resolved" : "chat.actions.returned"), "success");
    navigate("/tickets");
  }

  async function runAction(action: TicketAction) {
    if (action === "resolve" && assistOn) {
      setResolveOpen(true);
      return;
    }
    setBusy(action);
    try {
      const updated = await updateTicket(ticket.id, statusChange(action, me.id));
      if (action === "return" || action === "resolve") {
        left(updated, action);
        return;
      }
      store(updated);
      // Now the agent's own: reading it marks the contact's messages read.
      conversation.markReadSoon();
    } catch (error) {
      toastError(error);
    } finally {
      setBusy(null);
    }
  }

  const handlers = useMemo<MessageHandlers>(() => {
    const show = (message: MessageDTO) => upsertMessage(queryClient, ticket.id, message);
    return {
      reply: open
        ? (message) => {
            setEditing(null);
            setReplyTo(message);
          }
        : undefined,
      edit: open
        ? (message) => {
            setReplyTo(null);
            setEditing(message);
          }
        : undefined,
      react: (message, emoji) => void reactToMessage(message.id, emoji).then(show, toastError),
      remove: (message) => setDeleting(message),
      forward: (message) => setSelection(new Set([message.id])),
      retry: (message) => void retryMessage(message.id).then(show, toastError),
    };
  }, [open, queryClient, ticket.id]);

  const toggleSelected = useCallback((message: MessageDTO) => {
    setSelection((current) => {
      const next = new Set(current ?? []);
      if (next.has(message.id)) next.delete(message.id);
      else next.add(message.id);
      return next;
    });
  }, []);

  function startForward() {
    if (!selection || selection.size === 0) {
      toast(t("chat.forward.noneSelected"), "warning");
      return;
    }
    setForwarding(conversation.messages.filter((m) => selection.has(m.id)).map((m) => m.id));
  }

  async function confirmDelete() {
    if (!deleting) return;
    const message = deleting;
    setDeleting(null);
    try {
      await deleteMessage(message.id);
      upsertMessage(queryClient, ticket.id, { ...message, isDeleted: true });
    } catch (error) {
      toastError(error);
    }
  }

  function cancelContext() {
    setReplyTo(null);
    setEditing(null);
  }

  function onDragOver(event: DragEvent) {
    if (!open || selection || !event.dataTransfer.types.includes("Files")) return;
    event.preventDefault();
    setDragging(true);
  }

  function onDrop(event: DragEvent) {
    setDragging(false);
    const dropped = [...event.dataTransfer.files];
    if (!open || dropped.length === 0) return;
    event.preventDefault();
    setFiles((current) => [...(current ?? []), ...dropped]);
  }

  return (
    <Box
      ref={root}
      sx={{ flex: 1, minWidth: 0, minHeight: 0, height: "100%", display: "flex", position: "relative" }}
    >
      <Box
        ref={column}
        component="section"
        aria-label={t("chat.title", { name: ticket.contact.name })}
        onDragOver={onDragOver}
        onDragLeave={(event) => {
          if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDragging(false);
        }}
        onDrop={onDrop}
        sx={{ flex: 1, minWidth: 0, display: "flex", flexDirection: "column", position: "relative" }}
      >
        <ChatHeader
          ticket={ticket}
          presence={presence}
          busy={busy}
          onAction={(action) => void runAction(action)}
          onTransfer={() => setTransferOpen(true)}
          onToggleContact={() => setContactOpen((value) => !value)}
          contactOpen={contactOpen}
          onBack={() => navigate("/tickets")}
          width={columnWidth}
        />
        <TagEditor ticket={ticket} onSaved={store} />
        <MessageList
          conversation={conversation}
          contactName={ticket.contact.name}
          meId={me.id}
          handlers={handlers}
          selection={selection}
          onToggleSelect={toggleSelected}
        />
        {selection ? (
          <Box
            component="footer"
            sx={{
              display: "flex",
              alignItems: "center",
              gap: 2,
              px: 2,
              py: 1.25,
              bgcolor: theme.palette.mode === "dark" ? "#202c33" : "#f0f2f5",
            }}
          >
            <IconButton aria-label={t("chat.forward.cancel")} onClick={() => setSelection(null)}>
              <CloseIcon />
            </IconButton>
            <Typography sx={{ flex: 1 }} role="status">
              {t("chat.forward.selected", { count: selection.size })}
            </Typography>
            <Button variant="contained" startIcon={<ForwardIcon />} onClick={startForward}>
              {t("chat.menu.forward")}
            </Button>
          </Box>
        ) : (
          <>
            <CloudWindowBanner ticket={ticket} />
            <Composer
              key={editing ? `edit-${editing.id}` : "compose"}
              ticket={ticket}
              contactName={ticket.contact.name}
              replyTo={replyTo}
              editing={editing}
              onCancel={cancelContext}
              sign={sign}
              onSignChange={setSign}
              onAttach={(added) => setFiles((current) => [...(current ?? []), ...added])}
              onAccept={() => void runAction("accept")}
              onReopen={() => void runAction("reopen")}
              busy={busy === "accept" || busy === "reopen"}
            />
          </>
        )}
        {dragging && (
          <Box
            aria-hidden
            sx={{
              position: "absolute",
              inset: 8,
              zIndex: 5,
              border: 3,
              borderStyle: "dashed",
              borderColor: "primary.main",
              borderRadius: 2,
              bgcolor: theme.palette.mode === "dark" ? "rgba(17,27,33,0.85)" : "rgba(255,255,255,0.85)",
              display: "flex",
              flexDirection: "column",
              alignItems: "center",
              justifyContent: "center",
              gap: 1,
              pointerEvents: "none",
            }}
          >
            <UploadFileIcon color="primary" sx={{ fontSize: 48 }} />
            <Typography variant="h6">{t("chat.attach.drop")}</Typography>
          </Box>
        )}
      </Box>
      {contactOpen && (
        <Box
          sx={
            inlineDrawer
              ? { width: LIMITS.contactDrawerWidth, flexShrink: 0, display: "flex" }
              : {
                  position: "absolute",
                  top: 0,
                  right: 0,
                  bottom: 0,
                  zIndex: 6,
                  width: `min(${LIMITS.contactDrawerWidth}px, 100%)`,
                  display: "flex",
                  boxShadow: 8,
                }
          }
        >
          <ContactDrawer ticket={ticket} onClose={() => setContactOpen(false)} />
        </Box>
      )}
      {files && open && (
        <AttachmentDialog
          ticket={ticket}
          files={files}
          onFilesChange={setFiles}
          replyTo={replyTo}
          sign={sign}
          onClose={() => setFiles(null)}
          onSent={() => {
            setFiles(null);
            setReplyTo(null);
          }}
        />
      )}
      {transferOpen && (
        <TransferDialog
          ticket={ticket}
          onClose={() => setTransferOpen(false)}
          onTransferred={(updated) => {
            store(updated);
            toast(t("chat.transfer.done"), "success");
            navigate("/tickets");
          }}
        />
      )}
      {resolveOpen && (
        <ResolveDialog
          ticket={ticket}
          onClose={() => setResolveOpen(false)}
          onResolved={(updated) => left(updated, "resolve")}
        />
      )}
      {forwarding && (
        <ForwardDialog
          messageIds={forwarding}
          sign={sign}
          onClose={() => setForwarding(null)}
          onDone={() => {
            setForwarding(null);
            setSelection(null);
          }}
        />
      )}
      <ConfirmationDialog
        open={deleting !== null}
        title={t("chat.delete.title")}
        message={t("chat.delete.message")}
        onConfirm={() => void confirmDelete()}
        onClose={() => setDeleting(null)}
      />
    </Box>
  );
}

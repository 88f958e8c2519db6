import type { SimulatorPhoneMessage, WhatsappDTO } from "@atende/contracts";
import CallIcon from "@mui/icons-material/Call";
import VideocamIcon from "@mui/icons-material/Videocam";
import { Avatar, Box, CircularProgress, IconButton, Tooltip, Typography, useTheme } from "@mui/material";
import { useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "../../api/toast";
import { formatConnectionNumber } from "../connections/format";
import { ContactCardDialog, LocationDialog } from "./AttachDialogs";
import { Composer } from "./Composer";
import { buildVcard, conversationItems, readAsBase64 } from "./conversation";
import type { MessageActionHandlers } from "./MessageActions";
import { MessageBubble } from "./MessageBubble";
import { useMarkRead, usePhoneMessages, usePhoneSender } from "./useSimulator";

/** The simulator route takes JSON bodies up to 24 MB: base64 makes a file a third bigger. */
const MAX_FILE_MB = 16;

interface PhoneScreenProps {
  whatsapp: WhatsappDTO;
  /** The phone's number (digits), or null while none is valid. */
  number: string | null;
  name: string;
}

/** The customer's phone: the conversation with the business, as WhatsApp shows it. */
export function PhoneScreen({ whatsapp, number, name }: PhoneScreenProps) {
  const { t } = useTranslation();
  const theme = useTheme();
  const dark = theme.palette.mode === "dark";
  const messages = usePhoneMessages(whatsapp.id, number);
  const { send, sending } = usePhoneSender(whatsapp.id, number, name);
  const [replyTo, setReplyTo] = useState<SimulatorPhoneMessage | null>(null);
  const [editing, setEditing] = useState<SimulatorPhoneMessage | null>(null);
  const [dialog, setDialog] = useState<"location" | "contact" | null>(null);
  const items = useMemo(() => conversationItems(messages.data ?? []), [messages.data]);
  const scroller = useRef<HTMLDivElement>(null);
  useMarkRead(whatsapp.id, number, messages.data);

  useEffect(() => {
    const element = scroller.current;
    if (element) element.scrollTop = element.scrollHeight;
  }, [items.length, number]);

  function cancel() {
    setReplyTo(null);
    setEditing(null);
  }

  const handlers: MessageActionHandlers = {
    reply: (message) => {
      setEditing(null);
      setReplyTo(message);
    },
    react: (message, emoji) => void send({ reaction: { targetId: message.id, emoji } }),
    edit: (message) => {
      setReplyTo(null);
      setEditing(message);
    },
    revoke: (message) => void send({ revoke: { targetId: message.id } }),
  };

  function sendText(text: string): Promise<boolean> {
    const target = editing;
    const quoted = replyTo;
    cancel(); // the reply or edit goes with this message; the box is free for the next one
    return target
      ? send({ edit: { targetId: target.id, body: text } })
      : send({ body: text, quotedId: quoted?.id });
  }

  async function sendFile(file: File, caption: string): Promise<boolean> {
    if (file.size > MAX_FILE_MB * 1024 * 1024) {
      toast(t("simulator.tooLarge", { size: MAX_FILE_MB }), "error");
      return false;
    }
    const dataBase64 = await readAsBase64(file);
    const media = { filename: file.name, mimetype: file.type || "application/octet-stream", dataBase64 };
    const sent = await send({ media, body: caption.trim() || undefined, quotedId: replyTo?.id });
    if (sent) cancel();
    return sent;
  }

  const ready = number !== null;
  return (
    <Box
      sx={{
        width: "100%",
        maxWidth: 400,
        height: "100%",
        minHeight: 480,
        maxHeight: 760,
        border: 10,
        borderColor: "#1f1f1f",
        borderRadius: 6,
        overflow: "hidden",
        display: "flex",
        flexDirection: "column",
        boxShadow: 6,
      }}
    >
      <Box
        sx={{
          bgcolor: dark ? "#202c33" : "#008069",
          color: dark ? "#e9edef" : "#fff",
          display: "flex",
          alignItems: "center",
          gap: 1.5,
          px: 1.5,
          py: 1,
        }}
      >
        <Avatar sx={{ width: 36, height: 36 }}>{whatsapp.name.slice(0, 1).toUpperCase()}</Avatar>
        <Box sx={{ minWidth: 0, flex: 1 }}>
          <Typography sx={{ fontWeight: 600 }} noWrap>
            {whatsapp.name}
          </Typography>
          <Typography variant="caption" noWrap component="p">
            {formatConnectionNumber(whatsapp.number) || whatsapp.number}
          </Typography>
        </Box>
        {(
          [
            ["videoCall", VideocamIcon, true],
            ["voiceCall", CallIcon, false],
          ] as const
        ).map(([label, Icon, isVideo]) => (
          <Tooltip key={label} title={t(`simulator.${label}`)}>
            <span>
              <IconButton
                aria-label={t(`simulator.${label}`)}
                color="inherit"
                disabled={!ready || whatsapp.status !== "CONNECTED" || sending}
                onClick={() => void send({ call: { isVideo } })}
              >
                <Icon />
              </IconButton>
            </span>
          </Tooltip>
        ))}
      </Box>
      <Box
        ref={scroller}
        sx={{
          flex: 1,
          overflowY: "auto",
          bgcolor: dark ? "#0b141a" : "#efeae2",
          px: 1.5,
          py: 1,
          display: "flex",
          flexDirection: "column",
        }}
      >
        {!ready && <Placeholder text={t("simulator.pickPhone")} />}
        {ready && messages.isPending && (
          <CircularProgress aria-label={t("common.loading")} sx={{ m: "auto" }} />
        )}
        {ready && messages.isSuccess && items.length === 0 && (
          <Placeholder text={t("simulator.emptyConversation")} />
        )}
        {ready && items.length > 0 && (
          <Box
            role="list"
            aria-label={t("simulator.conversation")}
            sx={{ display: "flex", flexDirection: "column", mt: "auto" }}
          >
            {items.map((item) => (
              <MessageBubble
                key={item.message.id}
                message={item.message}
                quoted={item.quoted}
                reactions={item.reactions}
                businessName={whatsapp.name}
                handlers={handlers}
              />
            ))}
          </Box>
        )}
      </Box>
      <Composer
        key={editing?.id ?? "new"}
        initialText={editing?.body}
        disabled={!ready || whatsapp.status !== "CONNECTED"}
        sending={sending}
        replyTo={replyTo}
        editing={editing}
        businessName={whatsapp.name}
        onCancel={cancel}
        onSendText={sendText}
        onSendFile={sendFile}
        onLocation={() => setDialog("location")}
        onContact={() => setDialog("contact")}
      />
      {dialog === "location" && (
        <LocationDialog
          onClose={() => setDialog(null)}
          onSend={(location) => {
            setDialog(null);
            void send({ location });
          }}
        />
      )}
      {dialog === "contact" && (
        <ContactCardDialog
          onClose={() => setDialog(null)}
          onSend={(card) => {
            setDialog(null);
            void send({ vcard: buildVcard(card.name, card.number) });
          }}
        />
      )}
    </Box>
  );
}

function Placeholder({ text }: { text: string }) {
  return (
    <Typography
      variant="body2"
      sx={{
        m: "auto",
        textAlign: "center",
        bgcolor: "rgba(255,255,255,0.8)",
        // Over the dark wallpaper the white goes grey: #54656f would fall under 4.5:1.
        color: "#3b4a54",
        borderRadius: 2,
        px: 2,
        py: 1,
        maxWidth: 280,
      }}
    >
      {text}
    </Typography>
  );
}

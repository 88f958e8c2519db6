import {
  type CloudTemplateButtonDTO,
  type CloudTemplateDTO,
  type ConversationWindowDTO,
  type MessageDTO,
  TEMPLATE_MEDIA_HEADERS,
  type TemplateSendInput,
  type TicketDTO,
  fillTemplate,
} from "@atende/contracts";
import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  MenuItem,
  TextField,
  Typography,
} from "@mui/material";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { api } from "../../../api/http";
import { upsertMessage } from "../../../api/messagePages";
import { toast, toastError } from "../../../api/toast";

/**
 * The WhatsApp Cloud API's 24-hour window in the chat: a banner over the composer when only an
 * approved template may go, and the dialog that picks a template and fills its variables. Kept apart
 * from the composer (it only sits above it) and from the bubble (which only shows the button).
 */

const windowKey = (ticketId: number) => ["cloud-window", ticketId] as const;
const templatesKey = (whatsappId: number) => ["cloud-templates", whatsappId] as const;

/** The banner above the composer of a Cloud API ticket whose window is closed. */
export function CloudWindowBanner({ ticket }: { ticket: TicketDTO }) {
  const { t } = useTranslation();
  const [choosing, setChoosing] = useState(false);
  const window = useQuery({
    // The ticket's last change (a customer's message among them) asks again.
    queryKey: [...windowKey(ticket.id), ticket.updatedAt],
    queryFn: ({ signal }) => api.get<ConversationWindowDTO>(`/tickets/${ticket.id}/window`, { signal }),
    // The window closes by itself with time.
    refetchInterval: 60_000,
  });
  const data = window.data;
  if (!data?.applies || data.open || ticket.status !== "open" || !ticket.whatsappId) return null;
  return (
    <>
      <Alert
        severity="warning"
        role="status"
        sx={{ borderRadius: 0 }}
        action={
          <Button color="inherit" size="small" onClick={() => setChoosing(true)}>
            {t("cloud.chooseTemplate")}
          </Button>
        }
      >
        {t(data.lastInboundAt ? "cloud.windowClosed" : "cloud.windowNever")}
      </Alert>
      {choosing && (
        <TemplateDialog
          ticketId={ticket.id}
          whatsappId={ticket.whatsappId}
          onClose={() => setChoosing(false)}
        />
      )}
    </>
  );
}

/** A failed message's way out when WhatsApp refused it for the window (131047): send a template instead. */
export function TemplateChoiceButton({ message }: { message: MessageDTO }) {
  const { t } = useTranslation();
  const [choosing, setChoosing] = useState(false);
  if (!message.sendError?.startsWith("ERR_WAPP_24H_WINDOW")) return null;
  return (
    <>
      <Button size="small" color="error" onClick={() => setChoosing(true)} sx={{ py: 0, minWidth: 0 }}>
        {t("cloud.sendTemplate")}
      </Button>
      {choosing && <TemplateDialog ticketId={message.ticketId} onClose={() => setChoosing(false)} />}
    </>
  );
}

function TemplateDialog(props: { ticketId: number; whatsappId?: number; onClose(): void }) {
  const { ticketId, onClose } = props;
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  // From a failed message the connection is not at hand: the window names it.
  const window = useQuery({
    queryKey: windowKey(ticketId),
    queryFn: ({ signal }) => api.get<ConversationWindowDTO>(`/tickets/${ticketId}/window`, { signal }),
    enabled: props.whatsappId === undefined,
  });
  const whatsappId = props.whatsappId ?? window.data?.whatsappId ?? null;
  const templates = useQuery({
    queryKey: templatesKey(whatsappId ?? 0),
    queryFn: ({ signal }) => api.get<CloudTemplateDTO[]>(`/whatsapp/${whatsappId}/templates`, { signal }),
    enabled: whatsappId !== null,
    staleTime: 5 * 60_000,
  });
  const [chosen, setChosen] = useState("");
  const [header, setHeader] = useState<string[]>([]);
  const [body, setBody] = useState<string[]>([]);
  const [media, setMedia] = useState({ file: "", filename: "" });
  const [buttons, setButtons] = useState<Record<number, string>>({});
  const [tried, setTried] = useState(false);
  const [sending, setSending] = useState(false);
  const list = templates.data ?? [];
  const template = list.find((tpl) => `${tpl.name}|${tpl.language}` === chosen) ?? null;
  const values = (filled: string[], count: number) =>
    Array.from({ length: count }, (_, i) => filled[i] ?? "");
  const headerValues = template ? values(header, template.headerVariables) : [];
  const bodyValues = template ? values(body, template.bodyVariables) : [];
  const mediaKind = template && isMediaHeader(template.headerFormat) ? template.headerFormat : null;
  const urlButtons = template?.buttons.filter((b) => b.type === "URL" && b.variables > 0) ?? [];
  const replyButtons = template?.buttons.filter((b) => b.type === "QUICK_REPLY") ?? [];
  const complete =
    [...headerValues, ...bodyValues, ...urlButtons.map((b) => buttons[b.index] ?? "")].every(
      (v) => v.trim() !== "",
    ) &&
    (!mediaKind || media.file.trim() !== "");

  function pick(key: string) {
    setChosen(key);
    setHeader([]);
    setBody([]);
    setMedia({ file: "", filename: "" });
    setButtons({});
    setTried(false);
  }

  async function send() {
    setTried(true);
    if (!template || !complete) return;
    setSending(true);
    try {
      const sent = await api.post<MessageDTO>(`/messages/${ticketId}/template`, {
        name: template.name,
        language: template.language,
        header: headerValues.map((v) => v.trim()),
        body: bodyValues.map((v) => v.trim()),
        ...(mediaKind ? { headerMedia: headerMediaOf(media.file, media.filename) } : {}),
        buttons: [...urlButtons, ...replyButtons]
          .map((b) => ({ index: b.index, value: (buttons[b.index] ?? "").trim() }))
          .filter((b) => b.value !== ""),
      } satisfies TemplateSendInput);
      upsertMessage(queryClient, ticketId, sent);
      void queryClient.invalidateQueries({ queryKey: windowKey(ticketId) });
      toast(t("cloud.sent"), "success");
      onClose();
    } catch (error) {
      toastError(error);
    } finally {
      setSending(false);
    }
  }

  const field = (label: string, value: string, onChange: (v: string) => void, required = true) => (
    <TextField
      key={label}
      label={label}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      size="small"
      fullWidth
      required={required}
      error={required && tried && value.trim() === ""}
      helperText={required && tried && value.trim() === "" ? t("cloud.required") : undefined}
      slotProps={{ htmlInput: { maxLength: 1024 } }}
    />
  );
  const named = template?.parameterFormat === "NAMED";
  const bodyLabel = (i: number) =>
    named
      ? t("cloud.namedVariable", { name: template?.bodyParams[i] ?? "" })
      : t("cloud.bodyVariable", { n: i + 1 });
  const buttonField = (b: CloudTemplateButtonDTO, key: "cloud.urlButton" | "cloud.quickReply") =>
    field(
      t(key, { text: b.text }),
      buttons[b.index] ?? "",
      (v) => setButtons({ ...buttons, [b.index]: v }),
      key === "cloud.urlButton",
    );
  const set = (list: string[], setList: (v: string[]) => void, i: number, count: number) => (v: string) => {
    const next = values(list, count);
    next[i] = v;
    setList(next);
  };

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="cloud-template-title">
      <DialogTitle id="cloud-template-title">{t("cloud.dialogTitle")}</DialogTitle>
      <DialogContent sx={{ display: "flex", flexDirection: "column", gap: 2, pt: "8px !important" }}>
        {templates.isPending ? (
          <Typography role="status">{t("cloud.loading")}</Typography>
        ) : templates.isError ? (
          <Alert severity="error">{t(`errors.${errorCodeOf(templates.error)}`)}</Alert>
        ) : list.length === 0 ? (
          <Typography>{t("cloud.none")}</Typography>
        ) : (
          <TextField
            select
            label={t("cloud.template")}
            value={chosen}
            onChange={(e) => pick(e.target.value)}
            size="small"
          >
            {list.map((tpl) => (
              <MenuItem key={`${tpl.name}|${tpl.language}`} value={`${tpl.name}|${tpl.language}`}>
                {tpl.name} · {tpl.language}
              </MenuItem>
            ))}
          </TextField>
        )}
        {template && (
          <>
            {headerValues.map((v, i) =>
              field(
                t("cloud.headerVariable", { n: i + 1 }),
                v,
                set(header, setHeader, i, template.headerVariables),
              ),
            )}
            {mediaKind && (
              <>
                {field(t("cloud.headerMedia", { kind: mediaKind.toLowerCase() }), media.file, (v) =>
                  setMedia({ ...media, file: v }),
                )}
                {mediaKind === "DOCUMENT" &&
                  field(
                    t("cloud.headerFilename"),
                    media.filename,
                    (v) => setMedia({ ...media, filename: v }),
                    false,
                  )}
              </>
            )}
            {bodyValues.map((v, i) => field(bodyLabel(i), v, set(body, setBody, i, template.bodyVariables)))}
            {urlButtons.map((b) => buttonField(b, "cloud.urlButton"))}
            {replyButtons.map((b) => buttonField(b, "cloud.quickReply"))}
            <Box>
              <Typography variant="caption" color="text.secondary">
                {t("cloud.preview")}
              </Typography>
              <Typography
                component="div"
                variant="body2"
                data-testid="template-preview"
                sx={{ whiteSpace: "pre-wrap", p: 1.5, borderRadius: 1, bgcolor: "action.hover" }}
              >
                {[
                  mediaKind ? `[${mediaKind.toLowerCase()}]` : null,
                  template.header &&
                    fillTemplate(template.header, headerValues, named ? template.headerParams : undefined),
                  fillTemplate(template.body, bodyValues, named ? template.bodyParams : undefined),
                  template.footer,
                ]
                  .filter(Boolean)
                  .join("\n\n")}
              </Typography>
            </Box>
          </>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t("cloud.cancel")}</Button>
        <Button variant="contained" onClick={() => void send()} disabled={!template || sending}>
          {t("cloud.send")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

function isMediaHeader(format: CloudTemplateDTO["headerFormat"]): format is "IMAGE" | "VIDEO" | "DOCUMENT" {
  return (TEMPLATE_MEDIA_HEADERS as readonly string[]).includes(format ?? "");
}

/** A media header's file as typed: an https link, else the id of media uploaded to the connection. */
function headerMediaOf(file: string, filename: string): NonNullable<TemplateSendInput["headerMedia"]> {
  const value = file.trim();
  const name = filename.trim();
  return {
    ...(/^https?:\/\//i.test(value) ? { link: value } : { id: value }),
    ...(name ? { filename: name } : {}),
  };
}

/** The ERR_* code of a failed call (the api client's error carries it), ERR_WAPP_TEMPLATES otherwise. */
function errorCodeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && code.startsWith("ERR_") ? code : "ERR_WAPP_TEMPLATES";
}

/** A send error that starts with an ERR_* code, in the user's language; the raw text otherwise. */
export function sendErrorText(
  error: string | null | undefined,
  t: (key: string) => string,
): string | undefined {
  if (!error) return undefined;
  const code = /^(ERR_[A-Z0-9_]+):/.exec(error)?.[1];
  const text = code ? t(`errors.${code}`) : error;
  return text === `errors.${code}` ? error : text;
}

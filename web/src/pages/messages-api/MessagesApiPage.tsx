import { Box, Button, Link, Paper, Stack, Typography } from "@mui/material";
import CopyIcon from "@mui/icons-material/ContentCopy";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { API_SEND_PATH } from "../../api/messagesApi";
import { SendTestForm } from "./SendTestForm";

/** A block of code with a copy button. */
function Code({ text, label }: { text: string; label: string }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  return (
    <Box sx={{ position: "relative" }}>
      <Box
        component="pre"
        aria-label={label}
        sx={{
          m: 0,
          p: 1.5,
          pr: 10,
          bgcolor: "action.hover",
          borderRadius: 1,
          fontSize: 13,
          overflowX: "auto",
          whiteSpace: "pre",
        }}
      >
        {text}
      </Box>
      <Button
        size="small"
        startIcon={<CopyIcon fontSize="small" />}
        // On the paper, not on the code's tinted box: there the dark theme's green falls to 3.7:1.
        sx={{ position: "absolute", top: 4, right: 4, bgcolor: "background.paper" }}
        onClick={() =>
          void navigator.clipboard?.writeText(text).then(() => {
            setCopied(true);
            window.setTimeout(() => setCopied(false), 1500);
          })
        }
      >
        {copied ? t("api.page.copied") : t("api.page.copy")}
      </Button>
    </Box>
  );
}

/** /messages-api: how a company's own system sends messages with a connection's token, and a place to try it. */
export function MessagesApiPage() {
  const { t } = useTranslation();
  const endpoint = `${window.location.origin}${API_SEND_PATH}`;
  const textCurl = [
    `curl -X POST '${endpoint}' \\`,
    `  -H 'Authorization: Bearer SEU_TOKEN' \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -H 'Idempotency-Key: pedido-1234' \\`,
    `  -d '{"number": "5511999999999", "body": "Olá! Seu pedido saiu para entrega."}'`,
  ].join("\n");
  const mediaCurl = [
    `curl -X POST '${endpoint}' \\`,
    `  -H 'Authorization: Bearer SEU_TOKEN' \\`,
    `  -F 'number=5511999999999' \\`,
    `  -F 'body=Segue a nota fiscal' \\`,
    `  -F 'medias=@/caminho/nota.pdf'`,
  ].join("\n");
  const answer = JSON.stringify(
    {
      mensagem: "Mensagem enviada",
      messageId: 120,
      messageIds: [120],
      ticketId: 45,
      ticketUuid: "…",
      contactId: 30,
    },
    null,
    2,
  );
  const error = JSON.stringify({ error: "ERR_API_TOKEN_INVALID", message: "…" }, null, 2);
  return (
    <Box sx={{ p: { xs: 1.5, sm: 3 }, maxWidth: 1100 }}>
      <Typography variant="h5" component="h1" gutterBottom>
        {t("api.page.title")}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {t("api.page.intro")}
      </Typography>

      <Paper variant="outlined" sx={{ p: 2, mb: 2 }}>
        <Typography variant="h6" component="h2">
          {t("api.page.notes")}
        </Typography>
        <Box component="ul" sx={{ pl: 3, my: 1 }}>
          {(["note1", "note2", "note3", "note4", "optional"] as const).map((k) => (
            <li key={k}>
              <Typography variant="body2">{t(`api.page.${k}`)}</Typography>
            </li>
          ))}
        </Box>
        <Link href="/docs" target="_blank" rel="noopener">
          {t("api.page.docsLink")}
        </Link>
      </Paper>

      <Paper variant="outlined" sx={{ p: 2, mb: 2 }}>
        <Typography variant="h6" component="h2" gutterBottom>
          {t("api.page.textMethod")}
        </Typography>
        <Typography variant="body2">
          <b>{t("api.page.endpoint")}:</b> <code>{endpoint}</code> · <b>{t("api.page.method")}:</b> POST
        </Typography>
        <Typography variant="body2" sx={{ mb: 1 }}>
          <b>{t("api.page.headers")}:</b> <code>Authorization: Bearer SEU_TOKEN</code>,{" "}
          <code>Content-Type: application/json</code>
        </Typography>
        <Code text={textCurl} label={t("api.page.example")} />
        <Typography variant="h6" component="h2" sx={{ mt: 2 }} gutterBottom>
          {t("api.page.mediaMethod")}
        </Typography>
        <Typography variant="body2" sx={{ mb: 1 }}>
          <b>{t("api.page.body")}:</b> <code>multipart/form-data</code>: number, body, medias
        </Typography>
        <Code text={mediaCurl} label={t("api.page.example")} />
        <Typography variant="h6" component="h2" sx={{ mt: 2 }} gutterBottom>
          {t("api.page.answers")}
        </Typography>
        <Box component="ul" sx={{ pl: 3, my: 1 }}>
          {(["answerOk", "answer400", "answer401", "answer403", "answer429"] as const).map((k) => (
            <li key={k}>
              <Typography variant="body2">{t(`api.page.${k}`)}</Typography>
            </li>
          ))}
        </Box>
        <Stack direction={{ xs: "column", md: "row" }} spacing={1.5}>
          <Box sx={{ flex: 1, minWidth: 0 }}>
            <Code text={answer} label="200" />
          </Box>
          <Box sx={{ flex: 1, minWidth: 0 }}>
            <Code text={error} label="401" />
          </Box>
        </Stack>
      </Paper>

      <Stack direction={{ xs: "column", md: "row" }} spacing={2}>
        <SendTestForm media={false} />
        <SendTestForm media />
      </Stack>
    </Box>
  );
}

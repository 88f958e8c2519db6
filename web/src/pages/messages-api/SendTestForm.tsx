import { Box, Button, CircularProgress, Paper, Stack, TextField, Typography } from "@mui/material";
import AttachIcon from "@mui/icons-material/AttachFile";
import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { sendWithToken } from "../../api/messagesApi";
import { toast, toastError } from "../../api/toast";

/** One of the spec's test forms: token, number and the message (text), or a file and its caption. */
export function SendTestForm({ media }: { media: boolean }) {
  const { t } = useTranslation();
  const id = useId();
  const [token, setToken] = useState("");
  const [number, setNumber] = useState("");
  const [body, setBody] = useState("");
  const [file, setFile] = useState<File | null>(null);
  const [sending, setSending] = useState(false);
  const [tried, setTried] = useState(false);
  const missing = {
    token: !token.trim(),
    number: !number.trim(),
    body: !media && !body.trim(),
    file: media && !file,
  };

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setTried(true);
    if (Object.values(missing).some(Boolean)) return;
    setSending(true);
    try {
      await sendWithToken(token.trim(), { number: number.trim(), body, file: media ? file : null });
      toast(t("api.page.sent"), "success");
      setBody("");
      setFile(null);
      setTried(false);
    } catch (err) {
      toastError(err);
    } finally {
      setSending(false);
    }
  }

  const help = (bad: boolean) => (tried && bad ? t("api.page.required") : undefined);
  return (
    <Paper variant="outlined" sx={{ p: 2, flex: 1, minWidth: 0 }}>
      <Typography variant="subtitle1" component="h3" sx={{ mb: 1.5 }} id={`${id}-title`}>
        {media ? t("api.page.testMedia") : t("api.page.testText")}
      </Typography>
      <Stack
        component="form"
        spacing={1.5}
        onSubmit={(e) => void submit(e)}
        aria-labelledby={`${id}-title`}
        noValidate
      >
        <TextField
          label={t("api.page.token")}
          value={token}
          onChange={(e) => setToken(e.target.value)}
          size="small"
          required
          autoComplete="off"
          error={tried && missing.token}
          helperText={help(missing.token)}
        />
        <TextField
          label={t("api.page.number")}
          value={number}
          onChange={(e) => setNumber(e.target.value)}
          size="small"
          required
          placeholder="5511999999999"
          inputMode="tel"
          error={tried && missing.number}
          helperText={help(missing.number)}
        />
        <TextField
          label={media ? t("api.page.caption") : t("api.page.message")}
          value={body}
          onChange={(e) => setBody(e.target.value)}
          size="small"
          required={!media}
          multiline
          minRows={2}
          error={tried && missing.body}
          helperText={help(missing.body)}
        />
        {media && (
          <Box>
            <Button component="label" variant="outlined" startIcon={<AttachIcon />} size="small">
              {t("api.page.chooseFile")}
              <input
                hidden
                type="file"
                aria-label={t("api.page.file")}
                onChange={(e) => setFile(e.target.files?.[0] ?? null)}
              />
            </Button>
            <Typography
              variant="body2"
              color={tried && missing.file ? "error" : "text.secondary"}
              sx={{ mt: 0.5, overflowWrap: "anywhere" }}
            >
              {file?.name ?? (tried && missing.file ? t("api.page.required") : t("api.page.noFile"))}
            </Typography>
          </Box>
        )}
        <Box>
          <Button
            type="submit"
            variant="contained"
            disabled={sending}
            startIcon={sending ? <CircularProgress size={16} color="inherit" /> : undefined}
          >
            {t("api.page.send")}
          </Button>
        </Box>
      </Stack>
    </Paper>
  );
}

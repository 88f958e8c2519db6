import RefreshIcon from "@mui/icons-material/Refresh";
import {
  Accordion,
  AccordionDetails,
  AccordionSummary,
  Alert,
  Box,
  IconButton,
  Paper,
  Stack,
  Tooltip,
  Typography,
} from "@mui/material";
import ExpandMoreIcon from "@mui/icons-material/ExpandMore";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { Navigate } from "react-router-dom";
import { fetchOutbox, mailKeys } from "../../api/mail";
import { useSessionUser } from "../../auth/AuthContext";
import { formatDate, formatTime } from "../../i18n/format";

/**
 * The super user's dev outbox (/mail-outbox): the mails kept while no SMTP_URL is set, newest
 * first, each opened to read its text (the code and the link). Anyone else goes to /.
 */
export function MailOutboxPage() {
  const user = useSessionUser();
  if (!user.super) return <Navigate to="/" replace />;
  return <Outbox />;
}

function Outbox() {
  const { t } = useTranslation();
  const { data, isFetching, refetch } = useQuery({
    queryKey: mailKeys.outbox(),
    queryFn: ({ signal }) => fetchOutbox(signal),
  });
  return (
    <Box sx={{ p: { xs: 1, sm: 2 }, maxWidth: 960, mx: "auto", width: "100%" }}>
      <Stack direction="row" sx={{ alignItems: "center", justifyContent: "space-between", mb: 1 }}>
        <Typography variant="h5" component="h1">
          {t("mail.outbox.title")}
        </Typography>
        <Tooltip title={t("mail.outbox.refresh")}>
          <IconButton
            aria-label={t("mail.outbox.refresh")}
            onClick={() => void refetch()}
            disabled={isFetching}
          >
            <RefreshIcon />
          </IconButton>
        </Tooltip>
      </Stack>
      {data && (
        <Alert severity={data.mode === "none" ? "warning" : "info"} sx={{ mb: 2 }}>
          {t(`mail.outbox.${data.mode === "outbox" ? "help" : data.mode}`)}
        </Alert>
      )}
      {data?.mails.length === 0 && (
        <Paper variant="outlined" sx={{ p: 3, textAlign: "center" }}>
          <Typography color="text.secondary">{t("mail.outbox.empty")}</Typography>
        </Paper>
      )}
      <Box component="ul" aria-label={t("mail.outbox.title")} sx={{ listStyle: "none", p: 0, m: 0 }}>
        {data?.mails.map((mail) => (
          <Box component="li" key={mail.id}>
            <Accordion disableGutters variant="outlined">
              <AccordionSummary expandIcon={<ExpandMoreIcon />}>
                <Stack sx={{ minWidth: 0 }}>
                  <Typography sx={{ fontWeight: 600 }} noWrap>
                    {mail.subject}
                  </Typography>
                  <Typography variant="body2" color="text.secondary" noWrap>
                    {t("mail.outbox.to")}: {mail.to} · {formatDate(mail.createdAt)}{" "}
                    {formatTime(mail.createdAt)}
                  </Typography>
                </Stack>
              </AccordionSummary>
              <AccordionDetails>
                <Typography
                  component="pre"
                  sx={{ whiteSpace: "pre-wrap", wordBreak: "break-word", fontFamily: "monospace", m: 0 }}
                >
                  {mail.text}
                </Typography>
              </AccordionDetails>
            </Accordion>
          </Box>
        ))}
      </Box>
    </Box>
  );
}

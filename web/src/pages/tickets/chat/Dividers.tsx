import { Box, Skeleton, Typography, useTheme } from "@mui/material";
import { useTranslation } from "react-i18next";
import { formatDate, formatTime } from "../../../i18n/format";
import { localDay } from "./conversation";

/** The chip WhatsApp draws for a day, over the wallpaper. */
export function DayDivider({ day }: { day: string }) {
  const { t } = useTranslation();
  const mode = useTheme().palette.mode;
  const today = localDay(new Date().toISOString());
  const yesterday = localDay(new Date(Date.now() - 86_400_000).toISOString());
  const label = day === today ? t("chat.today") : day === yesterday ? t("chat.yesterday") : formatDate(day);
  return (
    <Box role="separator" aria-label={label} sx={{ display: "flex", justifyContent: "center", py: 1.25 }}>
      <Typography
        variant="caption"
        sx={{
          px: 1.5,
          py: 0.5,
          borderRadius: 2,
          fontSize: 12.5,
          textTransform: "uppercase",
          bgcolor: mode === "dark" ? "#182229" : "#ffffff",
          color: mode === "dark" ? "#8696a0" : "#54656f",
          boxShadow: "0 1px 0.5px rgba(11,20,26,.13)",
        }}
      >
        {label}
      </Typography>
    </Box>
  );
}

/** Where one ticket (conversation) with the contact ended and the next one started. */
export function TicketDivider({ endedAt, startedAt }: { endedAt: string; startedAt: string }) {
  const { t } = useTranslation();
  const mode = useTheme().palette.mode;
  const chip = {
    px: 1.5,
    py: 0.5,
    borderRadius: 2,
    fontSize: 12.5,
    bgcolor: mode === "dark" ? "#182229" : "#fff5c4",
    color: mode === "dark" ? "#ffd279" : "#54656f",
    boxShadow: "0 1px 0.5px rgba(11,20,26,.13)",
  };
  return (
    <Box
      role="separator"
      aria-label={t("chat.divider.aria")}
      sx={{ display: "flex", flexDirection: "column", alignItems: "center", gap: 0.75, py: 2 }}
    >
      <Typography variant="caption" sx={chip}>
        {t("chat.divider.ended", { date: `${formatDate(endedAt)} ${formatTime(endedAt)}` })}
      </Typography>
      <Box sx={{ width: "60%", borderTop: 1, borderColor: "divider", borderStyle: "dashed" }} />
      <Typography variant="caption" sx={chip}>
        {t("chat.divider.started", { date: `${formatDate(startedAt)} ${formatTime(startedAt)}` })}
      </Typography>
    </Box>
  );
}

/** The top of the conversation: nothing older to load. */
export function ConversationStart() {
  const { t } = useTranslation();
  const mode = useTheme().palette.mode;
  return (
    <Typography
      variant="caption"
      component="p"
      sx={{ textAlign: "center", color: mode === "dark" ? "#8696a0" : "#54656f", py: 1 }}
    >
      {t("chat.beginning")}
    </Typography>
  );
}

export function LoadingBubbles() {
  const { t } = useTranslation();
  return (
    <Box
      aria-label={t("common.loading")}
      sx={{ px: "6%", py: 2, display: "flex", flexDirection: "column", gap: 1 }}
    >
      {[180, 260, 140, 300, 200].map((width, index) => (
        <Skeleton
          key={index}
          variant="rounded"
          width={width}
          height={36}
          sx={{ alignSelf: index % 2 ? "flex-end" : "flex-start", maxWidth: "70%" }}
        />
      ))}
    </Box>
  );
}

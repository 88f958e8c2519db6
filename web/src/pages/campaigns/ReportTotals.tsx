import type { CampaignTotals } from "@atende/contracts";
import { Box, LinearProgress, Paper, Stack, Typography } from "@mui/material";
import { useTranslation } from "react-i18next";

const TILES = [
  ["valid", "text.primary"],
  ["sent", "success.main"],
  ["delivered", "info.main"],
  ["confirmed", "primary.main"],
  ["unconfirmed", "warning.main"],
  ["failed", "error.main"],
  ["skipped", "warning.main"],
  ["optedOut", "text.secondary"],
] as const;

/** The totals as tiles, and the share processed (sent, not confirmed, failed or skipped) as a bar. */
export function ReportTotals({ totals }: { totals: CampaignTotals }) {
  const { t } = useTranslation();
  const done = totals.sent + totals.unconfirmed + totals.failed + totals.skipped;
  const percent = totals.total > 0 ? Math.round((done / totals.total) * 100) : 0;
  const progressLabel = t("campaigns.report.progressLabel", { done, total: totals.total });
  return (
    <Paper variant="outlined" sx={{ p: 2 }}>
      <Stack direction="row" spacing={1.5} sx={{ alignItems: "center", mb: 1 }}>
        <Typography variant="subtitle2" sx={{ flex: 1 }}>
          {t("campaigns.report.progress")}
        </Typography>
        <Typography variant="body2" color="text.secondary" data-testid="campaign-progress-text">
          {progressLabel} · {percent}%
        </Typography>
      </Stack>
      <LinearProgress
        variant="determinate"
        value={percent}
        aria-label={t("campaigns.report.progress")}
        aria-valuetext={progressLabel}
        sx={{ height: 10, borderRadius: 5, mb: 2 }}
      />
      <Box
        role="list"
        aria-label={t("campaigns.report.progress")}
        sx={{ display: "grid", gap: 1.5, gridTemplateColumns: "repeat(auto-fill, minmax(130px, 1fr))" }}
      >
        {TILES.map(([key, color]) => (
          <Box
            key={key}
            role="listitem"
            aria-label={`${t(`campaigns.report.${key}`)}: ${totals[key]}`}
            sx={{ border: 1, borderColor: "divider", borderRadius: 1, px: 1.5, py: 1 }}
          >
            <Typography variant="h5" component="p" sx={{ color, fontWeight: 600 }}>
              {totals[key]}
            </Typography>
            <Typography variant="caption" color="text.secondary">
              {t(`campaigns.report.${key}`)}
            </Typography>
          </Box>
        ))}
      </Box>
    </Paper>
  );
}

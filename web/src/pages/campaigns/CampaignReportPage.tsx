import ArrowBackIcon from "@mui/icons-material/ArrowBack";
import DownloadIcon from "@mui/icons-material/DownloadOutlined";
import SearchIcon from "@mui/icons-material/Search";
import {
  Alert,
  Box,
  Button,
  Chip,
  IconButton,
  InputAdornment,
  Paper,
  Stack,
  TextField,
  Tooltip,
  Typography,
} from "@mui/material";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink, useParams } from "react-router-dom";
import { downloadCampaignReportCsv } from "../../api/campaigns";
import { useCampaignReportLive } from "../../api/campaignsLive";
import { toastError } from "../../api/toast";
import { FullPageLoader } from "../../components/FullPageLoader";
import { CampaignStatusChip } from "./CampaignStatusChip";
import { dateTime } from "./CampaignsTable";
import { RecipientsTable } from "./RecipientsTable";
import { ReportTotals } from "./ReportTotals";
import { useCampaignReport } from "./useCampaignReport";

/**
 * /campaign/:campaignId/report: the campaign, its totals and progress, its recipients with their
 * state and times; live while it runs, read again 5 s after FINALIZADA arrives; a CSV download.
 */
export function CampaignReportPage() {
  const { campaignId } = useParams();
  const id = Number(campaignId);
  return Number.isInteger(id) && id > 0 ? <Report key={id} campaignId={id} /> : <NotFound />;
}

function NotFound() {
  const { t } = useTranslation();
  return (
    <Box sx={{ p: 3 }}>
      <Alert severity="warning">{t("campaigns.report.notFound")}</Alert>
    </Box>
  );
}

function Report({ campaignId }: { campaignId: number }) {
  const { t } = useTranslation();
  const report = useCampaignReport(campaignId);
  const [finishing, setFinishing] = useState(false);
  const [downloading, setDownloading] = useState(false);
  useCampaignReportLive(campaignId, () => {
    setFinishing(true);
    window.setTimeout(() => setFinishing(false), 6_000);
  });
  const { campaign, totals, list } = report;

  if (report.error && !campaign) return <NotFound />;
  if (!campaign || !totals) return <FullPageLoader />;

  async function download() {
    if (!campaign) return;
    setDownloading(true);
    try {
      await downloadCampaignReportCsv(campaign);
    } catch (error) {
      toastError(error);
    } finally {
      setDownloading(false);
    }
  }

  const facts: [string, string][] = [
    [t("campaigns.report.whatsapp"), campaign.whatsapp?.name ?? "—"],
    [
      t("campaigns.report.contactList"),
      campaign.contactList?.name ??
        (campaign.tagList ? t("campaigns.tagAudience", { name: campaign.tagList.name }) : "—"),
    ],
    [t("campaigns.report.scheduledAt"), dateTime(campaign.scheduledAt) || t("campaigns.noSchedule")],
    [t("campaigns.report.completedAt"), dateTime(campaign.completedAt) || t("campaigns.notCompleted")],
  ];

  return (
    <Box
      sx={{ p: { xs: 1.5, sm: 3 }, display: "flex", flexDirection: "column", gap: 2, flex: 1, minHeight: 0 }}
    >
      <Stack direction={{ xs: "column", sm: "row" }} spacing={1.5} sx={{ alignItems: { sm: "center" } }}>
        <Stack direction="row" spacing={1} sx={{ alignItems: "center", flex: 1, minWidth: 0 }}>
          <Tooltip title={t("campaigns.report.back")}>
            <IconButton component={RouterLink} to="/campaigns" aria-label={t("campaigns.report.back")}>
              <ArrowBackIcon />
            </IconButton>
          </Tooltip>
          <Typography variant="h5" component="h1" sx={{ fontWeight: 600 }} noWrap>
            {t("campaigns.report.title", { name: campaign.name })}
          </Typography>
          <CampaignStatusChip campaign={campaign} />
          {campaign.status === "EM_ANDAMENTO" && (
            <Chip size="small" color="error" variant="outlined" label={t("campaigns.report.live")} />
          )}
        </Stack>
        <Button
          variant="outlined"
          startIcon={<DownloadIcon />}
          loading={downloading}
          onClick={() => void download()}
        >
          {t("campaigns.report.downloadCsv")}
        </Button>
      </Stack>
      {finishing && (
        <Alert severity="success" role="status">
          {t("campaigns.report.reloading")}
        </Alert>
      )}
      <Stack direction="row" spacing={3} useFlexGap sx={{ flexWrap: "wrap" }}>
        {facts.map(([label, value]) => (
          <Box key={label}>
            <Typography variant="caption" color="text.secondary" component="p">
              {label}
            </Typography>
            <Typography variant="body2">{value}</Typography>
          </Box>
        ))}
      </Stack>
      <ReportTotals totals={totals} />
      <Stack direction={{ xs: "column", sm: "row" }} spacing={1.5} sx={{ alignItems: { sm: "center" } }}>
        <Typography variant="subtitle1" component="h2" sx={{ flex: 1, fontWeight: 600 }}>
          {t("campaigns.report.recipients")}
          {list.count !== undefined && (
            <Typography component="span" color="text.secondary" sx={{ ml: 1 }}>
              ({list.count})
            </Typography>
          )}
        </Typography>
        <TextField
          size="small"
          type="search"
          placeholder={t("campaigns.report.searchRecipients")}
          value={list.searchText}
          onChange={(event) => list.setSearchText(event.target.value)}
          sx={{ minWidth: { sm: 280 } }}
          slotProps={{
            htmlInput: { "aria-label": t("campaigns.report.searchRecipients") },
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <SearchIcon fontSize="small" />
                </InputAdornment>
              ),
            },
          }}
        />
      </Stack>
      <Paper
        variant="outlined"
        sx={{ flex: 1, minHeight: 240, display: "flex", flexDirection: "column", overflow: "hidden" }}
      >
        <RecipientsTable list={list} />
      </Paper>
    </Box>
  );
}

import {
  CAMPAIGN_CONFIRMATION_TIMEOUT_HOURS,
  CAMPAIGN_LONGER_INTERVALS,
  CAMPAIGN_MESSAGE_INTERVALS,
  type CampaignSettingsValues,
  type CampaignVariable,
  readCampaignSettings,
} from "@atende/contracts";
import { Box, Button, MenuItem, Paper, Stack, TextField, Typography } from "@mui/material";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { campaignKeys, fetchCampaignSettings, saveCampaignSettings } from "../../api/campaigns";
import { toast, toastError } from "../../api/toast";
import { FullPageLoader } from "../../components/FullPageLoader";
import { VariablesEditor } from "./VariablesEditor";

/** /campaigns-config: the sender's pace, its window and daily cap, the opt-out words and the variables. */
export function CampaignsConfigPage() {
  const settings = useQuery({
    queryKey: campaignKeys.settings(),
    queryFn: ({ signal }) => fetchCampaignSettings(signal),
  });
  if (!settings.data) return <FullPageLoader />;
  return <SettingsForm initial={readCampaignSettings(settings.data)} />;
}

const HOURS = Array.from({ length: 24 }, (_, h) => h);
const pad = (n: number) => String(n).padStart(2, "0");

function SettingsForm({ initial }: { initial: CampaignSettingsValues }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [values, setValues] = useState(initial);
  const [optOutText, setOptOutText] = useState(initial.optOutWords.join(", "));
  const [saving, setSaving] = useState(false);
  const set = <K extends keyof CampaignSettingsValues>(key: K, value: CampaignSettingsValues[K]) =>
    setValues((v) => ({ ...v, [key]: value }));

  async function save() {
    setSaving(true);
    try {
      const optOutWords = optOutText
        .split(",")
        .map((w) => w.trim())
        .filter(Boolean);
      // Kept within its range on save (the field may be empty while typing).
      const { min, max } = CAMPAIGN_CONFIRMATION_TIMEOUT_HOURS;
      const confirmationTimeoutHours = Math.min(max, Math.max(min, values.confirmationTimeoutHours));
      await saveCampaignSettings({ ...values, optOutWords, confirmationTimeoutHours });
      set("confirmationTimeoutHours", confirmationTimeoutHours);
      await queryClient.invalidateQueries({ queryKey: campaignKeys.settings() });
      toast(t("campaigns.config.saved"), "success");
    } catch (error) {
      toastError(error);
    } finally {
      setSaving(false);
    }
  }

  const seconds = (n: number) =>
    n === 0 ? t("campaigns.config.noInterval") : t("campaigns.config.seconds", { count: n });
  const hourSelect = (key: "sendWindowStart" | "sendWindowEnd", label: string) => (
    <TextField
      select
      fullWidth
      id={`campaign-settings-${key}`}
      label={label}
      value={values[key] ?? ""}
      onChange={(event) => set(key, event.target.value === "" ? null : Number(event.target.value))}
    >
      <MenuItem value="">{t("campaigns.config.anyHour")}</MenuItem>
      {HOURS.map((h) => (
        <MenuItem key={h} value={h}>
          {pad(h)}:00
        </MenuItem>
      ))}
    </TextField>
  );

  return (
    <Box sx={{ p: { xs: 1.5, sm: 3 }, display: "flex", flexDirection: "column", gap: 2, overflow: "auto" }}>
      <Typography variant="h5" component="h1" sx={{ fontWeight: 600 }}>
        {t("campaigns.config.title")}
      </Typography>
      <Paper variant="outlined" component="section" aria-labelledby="campaign-intervals" sx={{ p: 2.5 }}>
        <Typography id="campaign-intervals" variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
          {t("campaigns.config.intervals")}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {t("campaigns.config.intervalsHelp")}
        </Typography>
        <Stack direction={{ xs: "column", md: "row" }} spacing={2}>
          <TextField
            select
            fullWidth
            id="campaign-settings-messageInterval"
            label={t("campaigns.config.messageInterval")}
            value={values.messageInterval}
            onChange={(event) => set("messageInterval", Number(event.target.value))}
          >
            {CAMPAIGN_MESSAGE_INTERVALS.map((n) => (
              <MenuItem key={n} value={n}>
                {seconds(n)}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            select
            fullWidth
            id="campaign-settings-longerIntervalAfter"
            label={t("campaigns.config.longerIntervalAfter")}
            value={values.longerIntervalAfter}
            onChange={(event) => set("longerIntervalAfter", Number(event.target.value))}
          >
            {CAMPAIGN_LONGER_INTERVALS.map((n) => (
              <MenuItem key={n} value={n}>
                {n === 0 ? t("campaigns.config.notDefined") : t("campaigns.config.messages", { count: n })}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            select
            fullWidth
            id="campaign-settings-greaterInterval"
            label={t("campaigns.config.greaterInterval")}
            value={values.greaterInterval}
            onChange={(event) => set("greaterInterval", Number(event.target.value))}
          >
            {CAMPAIGN_LONGER_INTERVALS.map((n) => (
              <MenuItem key={n} value={n}>
                {seconds(n)}
              </MenuItem>
            ))}
          </TextField>
        </Stack>
      </Paper>
      <Paper variant="outlined" component="section" aria-labelledby="campaign-window" sx={{ p: 2.5 }}>
        <Typography id="campaign-window" variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
          {t("campaigns.config.window")}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {t("campaigns.config.windowHelp")}
        </Typography>
        <Stack direction={{ xs: "column", md: "row" }} spacing={2}>
          {hourSelect("sendWindowStart", t("campaigns.config.windowStart"))}
          {hourSelect("sendWindowEnd", t("campaigns.config.windowEnd"))}
          <TextField
            fullWidth
            type="number"
            id="campaign-settings-dailyCap"
            label={t("campaigns.config.dailyCap")}
            helperText={t("campaigns.config.dailyCapHelp")}
            value={values.dailyCap}
            onChange={(event) => set("dailyCap", Math.max(0, Math.floor(Number(event.target.value) || 0)))}
            slotProps={{ htmlInput: { min: 0, step: 1 } }}
          />
          <TextField
            fullWidth
            type="number"
            id="campaign-settings-confirmationTimeoutHours"
            label={t("campaigns.config.confirmationTimeout")}
            helperText={t("campaigns.config.confirmationTimeoutHelp")}
            value={values.confirmationTimeoutHours}
            onChange={(event) =>
              set("confirmationTimeoutHours", Math.max(0, Math.floor(Number(event.target.value) || 0)))
            }
            slotProps={{
              htmlInput: {
                min: CAMPAIGN_CONFIRMATION_TIMEOUT_HOURS.min,
                max: CAMPAIGN_CONFIRMATION_TIMEOUT_HOURS.max,
                step: 1,
              },
            }}
          />
        </Stack>
        <TextField
          fullWidth
          id="campaign-settings-optOut"
          label={t("campaigns.config.optOut")}
          helperText={t("campaigns.config.optOutHelp")}
          value={optOutText}
          onChange={(event) => setOptOutText(event.target.value)}
          sx={{ mt: 2 }}
        />
      </Paper>
      <Paper variant="outlined" component="section" aria-labelledby="campaign-variables" sx={{ p: 2.5 }}>
        <Typography id="campaign-variables" variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
          {t("campaigns.config.variablesTitle")}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {t("campaigns.config.variablesHelp")}
        </Typography>
        <VariablesEditor
          variables={values.variables}
          onChange={(variables: CampaignVariable[]) => set("variables", variables)}
        />
      </Paper>
      <Box>
        <Button variant="contained" loading={saving} onClick={() => void save()}>
          {t("campaigns.config.save")}
        </Button>
      </Box>
    </Box>
  );
}

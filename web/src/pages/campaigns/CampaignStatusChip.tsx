import type { CampaignDTO, CampaignStatus } from "@atende/contracts";
import PauseIcon from "@mui/icons-material/PauseCircleOutlined";
import { Chip, Stack, Tooltip } from "@mui/material";
import { useTranslation } from "react-i18next";

const COLOR: Record<CampaignStatus, "default" | "info" | "warning" | "success" | "error"> = {
  INATIVA: "default",
  PROGRAMADA: "info",
  EM_ANDAMENTO: "warning",
  CANCELADA: "error",
  FINALIZADA: "success",
};

/** Why a paused campaign waits, in the user's language ("ERR_CODE: details" reads as the code's text). */
export function usePausedText(reason: string | null): string | null {
  const { t } = useTranslation();
  if (!reason) return null;
  const [code] = reason.split(": ");
  return code && /^ERR_/.test(code) ? t(`errors.${code}`, { defaultValue: t("campaigns.paused") }) : reason;
}

/** The status as a chip with its label; a running campaign the sender holds back says why. */
export function CampaignStatusChip({ campaign }: { campaign: Pick<CampaignDTO, "status" | "pausedReason"> }) {
  const { t } = useTranslation();
  const paused = usePausedText(campaign.status === "EM_ANDAMENTO" ? campaign.pausedReason : null);
  const chip = (
    <Chip
      size="small"
      variant={campaign.status === "INATIVA" ? "outlined" : "filled"}
      color={COLOR[campaign.status]}
      label={t(`campaigns.status.${campaign.status}`)}
    />
  );
  if (!paused) return chip;
  return (
    <Tooltip title={paused}>
      <Stack direction="row" spacing={0.5} sx={{ alignItems: "center", justifyContent: "center" }}>
        {chip}
        <PauseIcon fontSize="small" color="warning" titleAccess={paused} />
      </Stack>
    </Tooltip>
  );
}

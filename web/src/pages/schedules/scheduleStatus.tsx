import type { ScheduleDTO, ScheduleStatus } from "@atende/contracts";
import { Chip, Tooltip } from "@mui/material";
import type { TFunction } from "i18next";
import { useTranslation } from "react-i18next";

const COLOR: Record<ScheduleStatus, "default" | "info" | "success" | "error"> = {
  PENDENTE: "default",
  AGENDADA: "info",
  ENVIADA: "success",
  ERRO: "error",
};

/** Why a schedule was not sent, in the user's language: "ERR_CODE: details" reads as the code's text and the details. */
export function scheduleErrorText(t: TFunction, error: string | null): string {
  if (!error) return "";
  const [code, ...rest] = error.split(": ");
  const detail = rest.join(": ");
  const known = code && /^ERR_/.test(code) ? t(`errors.${code}`, { defaultValue: code }) : error;
  return known === error || !detail ? known : `${known} (${detail})`;
}

/** The status as a chip; a failed one says 'Erro de Envio' and, on hover, why. */
export function ScheduleStatusChip({ schedule }: { schedule: Pick<ScheduleDTO, "status" | "error"> }) {
  const { t } = useTranslation();
  const chip = (
    <Chip
      size="small"
      variant={schedule.status === "PENDENTE" ? "outlined" : "filled"}
      color={COLOR[schedule.status]}
      label={t(`schedules.status.${schedule.status}`)}
    />
  );
  if (schedule.status !== "ERRO" || !schedule.error) return chip;
  return (
    <Tooltip title={scheduleErrorText(t, schedule.error)}>
      <span>{chip}</span>
    </Tooltip>
  );
}

export const STATUS_COLOR = COLOR;

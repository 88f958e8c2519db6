import type { WhatsappDTO, WhatsappStatus } from "@atende/contracts";
import CheckCircleIcon from "@mui/icons-material/CheckCircle";
import CloudOffIcon from "@mui/icons-material/CloudOff";
import PhonelinkEraseIcon from "@mui/icons-material/PhonelinkErase";
import { Box, Button, CircularProgress, Stack, Tooltip, Typography } from "@mui/material";
import type { ReactElement } from "react";
import { useTranslation } from "react-i18next";

function StatusTooltip({ status, children }: { status: WhatsappStatus; children: ReactElement }) {
  const { t } = useTranslation();
  const hint = t(`connections.statusHint.${status}`);
  return (
    <Tooltip
      title={
        <>
          <Typography variant="body2" sx={{ fontWeight: 600 }}>
            {t(`connections.status.${status}`)}
          </Typography>
          {hint && <Typography variant="caption">{hint}</Typography>}
        </>
      }
    >
      {children}
    </Tooltip>
  );
}

/** One icon per status: connected in green, waiting states as progress, failures in red. */
export function StatusIcon({ status }: { status: WhatsappStatus }) {
  const { t } = useTranslation();
  const label = t(`connections.status.${status}`);
  let icon: ReactElement;
  if (status === "CONNECTED") icon = <CheckCircleIcon color="success" titleAccess={label} />;
  else if (status === "DISCONNECTED") icon = <CloudOffIcon color="error" titleAccess={label} />;
  else if (status === "TIMEOUT") icon = <PhonelinkEraseIcon color="error" titleAccess={label} />;
  else
    icon = (
      <CircularProgress size={20} aria-label={label} color={status === "qrcode" ? "warning" : "primary"} />
    );
  return (
    <StatusTooltip status={status}>
      <Box component="span" sx={{ display: "inline-flex", verticalAlign: "middle" }}>
        {icon}
      </Box>
    </StatusTooltip>
  );
}

export interface SessionActions {
  showQr(whatsapp: WhatsappDTO): void;
  tryAgain(whatsapp: WhatsappDTO): void;
  newQr(whatsapp: WhatsappDTO): void;
  disconnect(whatsapp: WhatsappDTO): void;
}

interface SessionButtonsProps {
  whatsapp: WhatsappDTO;
  actions: SessionActions;
  /** A session call of this connection is running: its buttons wait. */
  busy: boolean;
}

/** The session controls of one row, per status (back-office spec, Connections page). */
export function SessionButtons({ whatsapp, actions, busy }: SessionButtonsProps) {
  const { t } = useTranslation();
  const common = { size: "small", variant: "outlined", disabled: busy } as const;
  switch (whatsapp.status) {
    case "qrcode":
      return (
        <Button {...common} variant="contained" onClick={() => actions.showQr(whatsapp)}>
          {t("connections.showQr")}
        </Button>
      );
    case "DISCONNECTED":
      return (
        <Stack direction="row" spacing={1} sx={{ justifyContent: "center" }}>
          <Button {...common} color="primary" onClick={() => actions.tryAgain(whatsapp)}>
            {t("connections.tryAgain")}
          </Button>
          <Button {...common} color="secondary" onClick={() => actions.newQr(whatsapp)}>
            {t("connections.newQr")}
          </Button>
        </Stack>
      );
    case "CONNECTED":
    case "TIMEOUT":
      return (
        <Button {...common} color="error" onClick={() => actions.disconnect(whatsapp)}>
          {t("connections.disconnect")}
        </Button>
      );
    case "PAIRING":
      return (
        <Typography variant="body2" color="text.secondary">
          {t("connections.pairing")}
        </Typography>
      );
    case "OPENING":
      return (
        <Button
          size="small"
          variant="outlined"
          disabled
          startIcon={<CircularProgress size={14} aria-hidden />}
        >
          {t("connections.connecting")}
        </Button>
      );
  }
}

import ErrorIcon from "@mui/icons-material/ErrorOutlined";
import { Box } from "@mui/material";
import { useTranslation } from "react-i18next";

const GREY = "#8696a0";
const BLUE = "#53bdeb";

/** WhatsApp's status marks on an outgoing message: 0 clock; 1-2 one tick; 3 two grey; 4-5 two blue. */
export function Ticks({ ack, failed }: { ack: number; failed?: boolean }) {
  const { t } = useTranslation();
  if (failed) {
    return (
      <ErrorIcon role="img" aria-label={t("chat.ack.failed")} sx={{ fontSize: 16, color: "error.main" }} />
    );
  }
  const state = ack <= 0 ? "pending" : ack <= 2 ? "sent" : ack === 3 ? "delivered" : "read";
  const label = t(`chat.ack.${state}`);
  if (state === "pending") {
    return (
      <Box component="svg" viewBox="0 0 16 16" role="img" aria-label={label} sx={{ width: 15, height: 15 }}>
        <title>{label}</title>
        <circle cx="8" cy="8" r="6.2" fill="none" stroke={GREY} strokeWidth="1.4" />
        <path d="M8 4.6V8.3l2.4 1.5" fill="none" stroke={GREY} strokeWidth="1.4" strokeLinecap="round" />
      </Box>
    );
  }
  const colour = state === "read" ? BLUE : GREY;
  return (
    <Box
      component="svg"
      viewBox="0 0 18 12"
      role="img"
      aria-label={label}
      data-ack={state}
      sx={{ width: 18, height: 12 }}
    >
      <title>{label}</title>
      {state === "sent" ? (
        <path
          d="M3.5 6.4l3 3 6.5-7.6"
          fill="none"
          stroke={colour}
          strokeWidth="1.6"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      ) : (
        <>
          <path
            d="M1.2 6.4l3 3 6.5-7.6"
            fill="none"
            stroke={colour}
            strokeWidth="1.6"
            strokeLinecap="round"
            strokeLinejoin="round"
          />
          <path
            d="M8.4 8.9l.6.5 6.5-7.6"
            fill="none"
            stroke={colour}
            strokeWidth="1.6"
            strokeLinecap="round"
            strokeLinejoin="round"
          />
        </>
      )}
    </Box>
  );
}

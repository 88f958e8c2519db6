import AccessTimeIcon from "@mui/icons-material/AccessTime";
import DoneAllIcon from "@mui/icons-material/DoneAll";
import DoneIcon from "@mui/icons-material/Done";
import { useTranslation } from "react-i18next";

const GREY = "#8696a0";
const BLUE = "#53bdeb";

/** WhatsApp's ticks for the phone's own messages: 0 clock; 1-2 one grey; 3 two grey; 4-5 two blue. */
export function Ticks({ ack }: { ack: number }) {
  const { t } = useTranslation();
  const sx = { fontSize: 16, verticalAlign: "middle" } as const;
  if (ack <= 0)
    return <AccessTimeIcon titleAccess={t("simulator.ticks.pending")} sx={{ ...sx, color: GREY }} />;
  if (ack <= 2) return <DoneIcon titleAccess={t("simulator.ticks.sent")} sx={{ ...sx, color: GREY }} />;
  if (ack === 3)
    return <DoneAllIcon titleAccess={t("simulator.ticks.delivered")} sx={{ ...sx, color: GREY }} />;
  return <DoneAllIcon titleAccess={t("simulator.ticks.read")} sx={{ ...sx, color: BLUE }} />;
}

import OpenInNewIcon from "@mui/icons-material/OpenInNew";
import { IconButton, Tooltip } from "@mui/material";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router-dom";

/** A report row's way to its ticket: an icon link named "Abrir o atendimento {id}". */
export function OpenTicketButton({ id, uuid }: { id: number; uuid: string }) {
  const { t } = useTranslation();
  const label = t("reports.openTicket", { id });
  return (
    <Tooltip title={label}>
      <IconButton size="small" component={RouterLink} to={`/tickets/${uuid}`} aria-label={label}>
        <OpenInNewIcon fontSize="small" />
      </IconButton>
    </Tooltip>
  );
}

import type { CampaignShippingDTO } from "@atende/contracts";
import { Chip, TableCell, TableRow, Tooltip, Typography } from "@mui/material";
import { useTranslation } from "react-i18next";
import { InfiniteTable } from "../../components/InfiniteTable";
import type { SearchableList } from "../../hooks/useSearchableList";
import { dateTime } from "./CampaignsTable";
import { recipientState, STATE_COLOR } from "./recipientState";

/** Why a recipient was skipped or failed, in the user's language ("ERR_CODE: details"). */
function useReasonText() {
  const { t } = useTranslation();
  return (error: string | null): string => {
    if (!error) return "";
    const [code, ...rest] = error.split(": ");
    const detail = rest.join(": ");
    if (!code || !/^ERR_/.test(code)) return error;
    const text = t(`errors.${code}`, { defaultValue: code });
    return detail ? `${text} (${detail})` : text;
  };
}

/** The recipients with their state and times, loading the next page within 100 px of the end. */
export function RecipientsTable({ list }: { list: SearchableList<CampaignShippingDTO> }) {
  const { t } = useTranslation();
  const reason = useReasonText();
  return (
    <InfiniteTable
      list={list}
      aria-label={t("campaigns.report.recipients")}
      columns={[
        { label: t("campaigns.report.columns.name") },
        { label: t("campaigns.report.columns.number") },
        { label: t("campaigns.report.columns.state"), align: "center" },
        { label: t("campaigns.report.columns.variant"), align: "center" },
        { label: t("campaigns.report.columns.confirmationRequestedAt"), align: "center" },
        { label: t("campaigns.report.columns.confirmedAt"), align: "center" },
        { label: t("campaigns.report.columns.deliveredAt"), align: "center" },
        { label: t("campaigns.report.columns.reason") },
      ]}
      empty={t("campaigns.report.empty")}
      renderRow={(row) => {
        const state = recipientState(row);
        const why = reason(row.error);
        return (
          <TableRow key={row.id} hover data-testid={`recipient-${row.number}`}>
            <TableCell sx={{ maxWidth: 220 }}>
              <Typography variant="body2" noWrap>
                {row.name}
              </Typography>
            </TableCell>
            <TableCell sx={{ whiteSpace: "nowrap" }}>{row.number}</TableCell>
            <TableCell align="center">
              <Chip
                size="small"
                color={STATE_COLOR[state]}
                variant={state === "pending" ? "outlined" : "filled"}
                label={t(`campaigns.report.state.${state}`)}
              />
            </TableCell>
            <TableCell align="center">{row.variant ?? ""}</TableCell>
            <TableCell align="center" sx={{ whiteSpace: "nowrap" }}>
              {dateTime(row.confirmationRequestedAt)}
            </TableCell>
            <TableCell align="center" sx={{ whiteSpace: "nowrap" }}>
              {dateTime(row.confirmedAt)}
            </TableCell>
            <TableCell align="center" sx={{ whiteSpace: "nowrap" }}>
              {dateTime(row.deliveredAt)}
            </TableCell>
            <TableCell sx={{ maxWidth: 260 }}>
              {why && (
                <Tooltip title={why}>
                  <Typography variant="caption" color="text.secondary" noWrap component="p">
                    {why}
                  </Typography>
                </Tooltip>
              )}
            </TableCell>
          </TableRow>
        );
      }}
    />
  );
}

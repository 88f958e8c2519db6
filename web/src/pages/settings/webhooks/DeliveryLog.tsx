import { Button, Chip, Table, TableBody, TableCell, TableHead, TableRow, Typography } from "@mui/material";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { toast, toastError } from "../../../api/toast";
import { fetchDeliveries, resendDelivery, webhookKeys } from "../../../api/webhooks";
import { formatDate, formatTime } from "../../../i18n/format";

const COLORS = { pending: "default", delivered: "success", failed: "error" } as const;

/** A subscription's newest deliveries: status, time, response code, attempts, and a resend button. */
export function DeliveryLog({ webhookId }: { webhookId: number }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const log = useQuery({
    queryKey: webhookKeys.deliveries(webhookId),
    queryFn: ({ signal }) => fetchDeliveries(webhookId, signal),
    refetchInterval: 3000,
  });
  if (!log.data?.length)
    return (
      <Typography variant="body2" color="text.secondary" sx={{ py: 1 }}>
        {log.isLoading ? t("common.loading") : t("api.webhooks.noDeliveries")}
      </Typography>
    );
  return (
    <Table size="small" aria-label={t("api.webhooks.log")}>
      <TableHead>
        <TableRow>
          <TableCell>{t("api.webhooks.time")}</TableCell>
          <TableCell>{t("api.webhooks.event")}</TableCell>
          <TableCell>{t("api.webhooks.status")}</TableCell>
          <TableCell>{t("api.webhooks.code")}</TableCell>
          <TableCell>{t("api.webhooks.attempts")}</TableCell>
          <TableCell />
        </TableRow>
      </TableHead>
      <TableBody>
        {log.data.map((d) => (
          <TableRow key={d.id}>
            <TableCell>
              {formatDate(d.lastAttemptAt ?? d.createdAt)} {formatTime(d.lastAttemptAt ?? d.createdAt)}
            </TableCell>
            <TableCell>{d.event}</TableCell>
            <TableCell>
              <Chip size="small" color={COLORS[d.status]} label={t(`api.webhooks.statuses.${d.status}`)} />
            </TableCell>
            <TableCell title={d.lastError ?? undefined}>
              {d.responseCode ?? (d.lastError ? "—" : "")}
            </TableCell>
            <TableCell>{d.attempts}</TableCell>
            <TableCell align="right">
              <Button
                size="small"
                onClick={() =>
                  void resendDelivery(webhookId, d.id)
                    .then(() => {
                      toast(t("api.webhooks.resent"), "success");
                      return queryClient.invalidateQueries({ queryKey: webhookKeys.deliveries(webhookId) });
                    })
                    .catch(toastError)
                }
              >
                {t("api.webhooks.resend")}
              </Button>
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

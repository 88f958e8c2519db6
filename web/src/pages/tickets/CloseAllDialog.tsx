import type { QueueDTO } from "@atende/contracts";
import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControl,
  FormControlLabel,
  FormLabel,
  Radio,
  RadioGroup,
  Stack,
  Typography,
} from "@mui/material";
import { useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { closeAllTickets, ticketKeys } from "../../api/tickets";
import { toast, toastError } from "../../api/toast";

interface CloseAllDialogProps {
  /** The queues ticked in the header; undefined when every queue is (then every queue is closed). */
  queues: QueueDTO[] | undefined;
  /** The status preselected: the sub-tab on screen. */
  initialStatus: "pending" | "open";
  onClose(): void;
}

/** Admin only: resolves every waiting or in-service ticket of the queues ticked in the header. */
export function CloseAllDialog({ queues, initialStatus, onClose }: CloseAllDialogProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const titleId = useId();
  const statusLabelId = useId();
  const [status, setStatus] = useState<"pending" | "open">(initialStatus);
  const [busy, setBusy] = useState(false);

  async function confirm() {
    setBusy(true);
    try {
      const { closed } = await closeAllTickets(status, queues?.map((queue) => queue.id) ?? []);
      // The live channel moves each ticket; a refetch settles the counts in one go.
      await queryClient.invalidateQueries({ queryKey: ticketKeys.lists() });
      toast(t("tickets.closeAllDialog.done", { count: closed }), "success");
      onClose();
    } catch (error) {
      toastError(error);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} maxWidth="xs" fullWidth>
      <DialogTitle id={titleId}>{t("tickets.closeAllDialog.title")}</DialogTitle>
      <DialogContent>
        <Stack spacing={2}>
          <FormControl>
            <FormLabel id={statusLabelId}>{t("tickets.closeAllDialog.status")}</FormLabel>
            <RadioGroup
              row
              aria-labelledby={statusLabelId}
              value={status}
              onChange={(event) => setStatus(event.target.value as "pending" | "open")}
            >
              <FormControlLabel value="pending" control={<Radio />} label={t("tickets.tabs.waiting")} />
              <FormControlLabel value="open" control={<Radio />} label={t("tickets.tabs.attending")} />
            </RadioGroup>
          </FormControl>
          <Typography variant="body2">
            {queues
              ? t("tickets.closeAllDialog.inQueues", { names: queues.map((queue) => queue.name).join(", ") })
              : t("tickets.closeAllDialog.allQueues")}
          </Typography>
          <Alert severity="warning">{t("tickets.closeAllDialog.warning")}</Alert>
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t("common.cancel")}</Button>
        <Button variant="contained" color="error" loading={busy} onClick={() => void confirm()}>
          {t("tickets.closeAllDialog.confirm")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from "@mui/material";
import { useId } from "react";
import { useTranslation } from "react-i18next";

interface ConfirmationDialogProps {
  open: boolean;
  title: string;
  message: string;
  /** True while the confirmed action runs: the confirm button shows progress. */
  busy?: boolean;
  onConfirm(): void;
  onClose(): void;
}

export function ConfirmationDialog({
  open,
  title,
  message,
  busy = false,
  onConfirm,
  onClose,
}: ConfirmationDialogProps) {
  const { t } = useTranslation();
  const titleId = useId();
  const messageId = useId();
  return (
    <Dialog
      open={open}
      onClose={onClose}
      aria-labelledby={titleId}
      aria-describedby={messageId}
      maxWidth="xs"
      fullWidth
    >
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent>
        <DialogContentText id={messageId}>{message}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t("common.cancel")}</Button>
        <Button variant="contained" color="error" loading={busy} onClick={onConfirm} autoFocus>
          {t("common.confirm")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

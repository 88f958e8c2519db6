import CloseIcon from "@mui/icons-material/Close";
import {
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  IconButton,
  Typography,
  type Breakpoint,
  type SxProps,
  type Theme,
} from "@mui/material";
import { useId, type FormEventHandler, type ReactNode } from "react";
import { useTranslation } from "react-i18next";

interface FormDialogProps {
  /** The dialog's name: the dialog is labelled by it. */
  title: ReactNode;
  /** Shown at the end of the title row (a status chip). */
  titleAdornment?: ReactNode;
  /** A line under the title; the dialog is described by it. */
  subtitle?: ReactNode;
  /** An × in the title row, for dialogs long enough that Cancel scrolls out of sight. */
  closeButton?: boolean;
  onClose(): void;
  onSubmit: FormEventHandler<HTMLFormElement>;
  submitting?: boolean;
  /** Defaults to "Save". */
  submitLabel?: ReactNode;
  /** Buttons before Cancel. */
  extraActions?: ReactNode;
  /** Nothing to save: one Close button instead of Cancel and Save. */
  readOnly?: boolean;
  closeLabel?: ReactNode;
  maxWidth?: Breakpoint;
  /** Between the title and the content, outside the scrolling part (tabs). */
  header?: ReactNode;
  /** The content's top and bottom rules; a dialog with tabs drops them. */
  dividers?: boolean;
  contentSx?: SxProps<Theme>;
  children: ReactNode;
}

/**
 * The frame of a form dialog: a title that names it, the form, the content that scrolls between a
 * fixed title and fixed actions, and Cancel + Save (Enter in a field saves, Esc closes). Focus
 * goes where the content says (`autoFocus` on its first field), as in any MUI dialog.
 */
export function FormDialog({
  title,
  titleAdornment,
  subtitle,
  closeButton = false,
  onClose,
  onSubmit,
  submitting = false,
  submitLabel,
  extraActions,
  readOnly = false,
  closeLabel,
  maxWidth = "sm",
  header,
  dividers = true,
  contentSx,
  children,
}: FormDialogProps) {
  const { t } = useTranslation();
  const titleId = useId();
  const subtitleId = useId();
  return (
    <Dialog
      open
      onClose={onClose}
      aria-labelledby={titleId}
      aria-describedby={subtitle ? subtitleId : undefined}
      maxWidth={maxWidth}
      fullWidth
      scroll="paper"
    >
      <Box
        component="form"
        noValidate
        onSubmit={onSubmit}
        sx={{ display: "flex", flexDirection: "column", minHeight: 0 }}
      >
        <DialogTitle id={titleId} sx={{ display: "flex", alignItems: "center", gap: 1.5 }}>
          <Box component="span" sx={{ flex: 1 }}>
            {title}
          </Box>
          {titleAdornment}
          {closeButton && (
            <IconButton aria-label={t("common.close")} onClick={onClose} edge="end">
              <CloseIcon />
            </IconButton>
          )}
        </DialogTitle>
        {subtitle && (
          <Typography
            id={subtitleId}
            variant="body2"
            color="text.secondary"
            sx={{ px: 3, mt: -1.5, pb: 1.5 }}
          >
            {subtitle}
          </Typography>
        )}
        {header}
        <DialogContent dividers={dividers} sx={contentSx}>
          {children}
        </DialogContent>
        <DialogActions>
          {extraActions}
          {readOnly ? (
            <Button onClick={onClose} variant="contained">
              {closeLabel ?? t("common.close")}
            </Button>
          ) : (
            <>
              <Button onClick={onClose}>{t("common.cancel")}</Button>
              <Button type="submit" variant="contained" loading={submitting}>
                {submitLabel ?? t("common.save")}
              </Button>
            </>
          )}
        </DialogActions>
      </Box>
    </Dialog>
  );
}

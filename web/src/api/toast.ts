import { LIMITS } from "@atende/contracts";
import { Button } from "@mui/material";
import { closeSnackbar, enqueueSnackbar, type SnackbarKey, type VariantType } from "notistack";
import { createElement } from "react";
import i18n from "../i18n";
import { ApiError } from "./http";

/** A button on a toast (a notice that leads somewhere: "Open"); a click closes the toast. */
export interface ToastAction {
  label: string;
  onClick(): void;
}

export interface ToastOptions {
  action?: ToastAction;
  /** How long it stays, in ms, in place of the default. */
  duration?: number;
}

function actionButton(action: ToastAction) {
  return (key: SnackbarKey) =>
    createElement(
      Button,
      {
        color: "inherit",
        size: "small",
        sx: { fontWeight: 700 },
        onClick: () => {
          closeSnackbar(key);
          action.onClick();
        },
      },
      action.label,
    );
}

/** Toasts last 2 s in the workspace (/tickets) and 3 s everywhere else, unless told otherwise. */
export function toast(message: string, variant: VariantType = "default", options: ToastOptions = {}): void {
  const inWorkspace = window.location.pathname.startsWith("/tickets");
  enqueueSnackbar(message, {
    variant,
    autoHideDuration: options.duration ?? (inWorkspace ? LIMITS.toastWorkspaceMs : LIMITS.toastShellMs),
    action: options.action ? actionButton(options.action) : undefined,
  });
}

/**
 * The common error display: a known ERR_* code in the user's language, an unknown code as given,
 * a plain string as it is, anything else as a generic sentence.
 */
export function errorText(error: unknown): string {
  if (error instanceof ApiError) {
    const code = error.code;
    if (code) return i18n.exists(`errors.${code}`) ? i18n.t(`errors.${code}`) : code;
    if (typeof error.body === "string" && error.body) return error.body;
  } else if (typeof error === "string" && error) {
    return error;
  }
  return i18n.t("common.genericError");
}

export function toastError(error: unknown): void {
  // The session is over and the app is going to /login: a toast would only add noise.
  if (error instanceof ApiError && error.sessionEnded) return;
  if (error instanceof DOMException && error.name === "AbortError") return;
  toast(errorText(error), "error");
}

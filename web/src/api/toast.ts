import { LIMITS } from "@atende/contracts";
import { enqueueSnackbar, type VariantType } from "notistack";
import i18n from "../i18n";
import { ApiError } from "./http";

/** Toasts last 2 s in the workspace (/tickets) and 3 s everywhere else. */
export function toast(message: string, variant: VariantType = "default"): void {
  const inWorkspace = window.location.pathname.startsWith("/tickets");
  enqueueSnackbar(message, {
    variant,
    autoHideDuration: inWorkspace ? LIMITS.toastWorkspaceMs : LIMITS.toastShellMs,
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

import { styled } from "@mui/material/styles";
import { MaterialDesignContent, SnackbarProvider } from "notistack";
import type { ReactNode } from "react";
import { LIMITS } from "@atende/contracts";

// notistack's own colours put white text on light green and orange (below WCAG AA); these keep
// at least 4.5:1 with white text in both themes.
const AccessibleToast = styled(MaterialDesignContent)({
  "&.notistack-MuiContent-success": { backgroundColor: "#1e7b34" },
  "&.notistack-MuiContent-error": { backgroundColor: "#c62828" },
  "&.notistack-MuiContent-warning": { backgroundColor: "#a05a00" },
  "&.notistack-MuiContent-info": { backgroundColor: "#1565c0" },
});

/** Toasts: at most three at a time; each call sets its own duration (see api/toast). */
export function Toaster({ children }: { children: ReactNode }) {
  return (
    <SnackbarProvider
      maxSnack={3}
      autoHideDuration={LIMITS.toastShellMs}
      Components={{
        success: AccessibleToast,
        error: AccessibleToast,
        warning: AccessibleToast,
        info: AccessibleToast,
      }}
    >
      {children}
    </SnackbarProvider>
  );
}

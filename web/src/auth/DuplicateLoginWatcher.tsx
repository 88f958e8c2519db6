import { LIMITS } from "@atende/contracts";
import { useTranslation } from "react-i18next";
import { clearSession } from "../api/session";
import { useCompanyEvent } from "../api/SocketProvider";
import { toast } from "../api/toast";
import { useAuth, useSessionUser } from "./AuthContext";
import { can } from "./permissions";

/**
 * A login of this user elsewhere, or the company locked out, ends this session: warn, forget it,
 * reload after 1 s.
 */
export function DuplicateLoginWatcher() {
  const { t } = useTranslation();
  const user = useSessionUser();
  const { markPastDue } = useAuth();

  useCompanyEvent("auth", (payload) => {
    if (payload.action !== "update" || payload.user.id !== user.id) return;
    toast(t("auth.loggedInElsewhere"), "warning");
    clearSession();
    window.setTimeout(() => window.location.reload(), LIMITS.reloadAfterExpiredMs);
  });

  // The company was made inactive or went past its due date: the server closes the socket too.
  // Past due, whoever pays (invoices:view, an admin) stays and is kept to the payment pages
  // (PastDueRoute), as the server lets them through (pastDueAdminPasses).
  useCompanyEvent("locked", (payload) => {
    if (payload.error === "ERR_SUBSCRIPTION_EXPIRED" && can(user, "invoices:view")) {
      markPastDue(user.company.dueDate ?? "");
      return;
    }
    toast(t(`errors.${payload.error}`), "error");
    clearSession();
    window.setTimeout(() => window.location.reload(), LIMITS.reloadAfterExpiredMs);
  });

  return null;
}

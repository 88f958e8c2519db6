import { CHECKOUT_REDIRECT_MS } from "@atende/contracts";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { useLocation, useNavigate } from "react-router-dom";
import { usePaymentLive } from "../api/billingLive";
import { toast } from "../api/toast";
import { useAuth, useSessionUser } from "../auth/AuthContext";
import { can } from "../auth/permissions";
import { BILLING_PATHS } from "../auth/guards";
import { formatDate } from "../i18n/format";

/**
 * A payment settled one of the company's invoices (`company-{id}-payment`, CONCLUIDA): the session
 * takes the new due date (the top bar's date, the trial chip gone, a past-due lock lifted). An admin on
 * the payment pages (the checkout's Pix screen among them) reads 'Sua licença foi renovada até
 * {date}!' and goes to / after 4 s, without reloading.
 */
export function PaymentWatcher() {
  const { t } = useTranslation();
  const user = useSessionUser();
  const { updateCompany } = useAuth();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const onBillingPage = BILLING_PATHS.some((path) => pathname.startsWith(path));
  const timer = useRef<number | undefined>(undefined);

  useEffect(() => () => window.clearTimeout(timer.current), []);

  usePaymentLive(({ company }) => {
    // The due date moved past the trial's end: the trial chip goes (auth/trial.ts).
    updateCompany({ dueDate: company.dueDate });
    if (!can(user, "invoices:view") || !onBillingPage) return;
    toast(t("billing.checkout.renewed", { date: formatDate(company.dueDate) }), "success");
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => void navigate("/"), CHECKOUT_REDIRECT_MS);
  });

  return null;
}

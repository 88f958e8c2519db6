import type { Permission, PlanFlag } from "@atende/contracts";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { Navigate, Outlet, useNavigate, useNavigationType } from "react-router-dom";
import { toast } from "../api/toast";
import { FullPageLoader } from "../components/FullPageLoader";
import { useAuth, useSessionUser } from "./AuthContext";
import { can } from "./permissions";
import { planAllows } from "./plan";

/** Private routes: an unauthenticated visitor goes to /login. */
export function PrivateRoute() {
  const { user, loading } = useAuth();
  if (loading) return <FullPageLoader />;
  return user ? <Outlet /> : <Navigate to="/login" replace />;
}

/** Public routes (/login, /signup, /forgetpsw): an authenticated visitor goes to /. */
export function PublicRoute() {
  const { user, loading } = useAuth();
  if (loading) return <FullPageLoader />;
  return user ? <Navigate to="/" replace /> : <Outlet />;
}

/**
 * Pages for holders of `permission` (the admin pages): anyone else, typing the address, hears the
 * spec's 'Acesso não permitido' and lands on the tickets screen; the page is never drawn.
 */
export function PermissionRoute({ permission }: { permission: Permission }) {
  const user = useSessionUser();
  return can(user, permission) ? <Outlet /> : <NotAllowed />;
}

function NotAllowed() {
  const { t } = useTranslation();
  // An address typed, reloaded or followed: said. The app's own redirects (to / after the login,
  // away from a plan-gated page) replace the entry: an agent is just taken to the tickets.
  const typed = useNavigationType() !== "REPLACE";
  useEffect(() => {
    if (typed) toast(t("planGate.accessDenied"), "error");
  }, [typed, t]);
  return <Navigate to="/tickets" replace />;
}

/** The back-office spec's redirect delay (section 9). */
const PLAN_REDIRECT_MS = 1_000;

/**
 * Pages of a feature the company's plan may lack (kanban, schedules, campaigns, chats, prompts...):
 * without it, the spec's toast ('Esta empresa não possui permissão para acessar essa página!
 * Estamos lhe redirecionando.') and / after a second; the page itself is never drawn.
 */
export function PlanRoute({ flag }: { flag: PlanFlag }) {
  const user = useSessionUser();
  const allowed = planAllows(user, flag);
  const { t } = useTranslation();
  const navigate = useNavigate();

  useEffect(() => {
    if (allowed) return;
    toast(t("planGate.missing"), "error");
    const timer = window.setTimeout(() => void navigate("/", { replace: true }), PLAN_REDIRECT_MS);
    return () => window.clearTimeout(timer);
  }, [allowed, navigate, t]);

  return allowed ? <Outlet /> : <FullPageLoader />;
}

/** The pages a past-due company's admin still reaches: the invoices and the subscription checkout. */
export const BILLING_PATHS = ["/financeiro", "/subscription"] as const;

/**
 * Every private page but the payment ones: while the company is past due (the server said so),
 * its admin is sent to /financeiro, which says why ('Opss! Sua assinatura venceu').
 */
export function PastDueRoute() {
  const { pastDue } = useAuth();
  return pastDue === null ? <Outlet /> : <Navigate to="/financeiro" replace />;
}

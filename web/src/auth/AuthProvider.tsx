import type { LoginAnswer, LoginInput, SessionUserDTO, UserDTO } from "@atende/contracts";
import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { api, onSessionEnded, onSubscriptionLocked } from "../api/http";
import { toast } from "../api/toast";
import { formatDate, setDisplayTimeZone } from "../i18n/format";
import { clearSession, readToken, storeCampaignFlag, storeSession } from "../api/session";
import { AuthContext, type AuthContextValue } from "./AuthContext";
import { can } from "./permissions";

/**
 * Who is logged in: found on load from the stored token (/auth/me, refreshed by cookie when it has
 * expired), set by login. Without a stored token there is no sign of a session: the login page
 * shows at once, and no refresh is asked for (a visitor's would answer 401 in the console).
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [user, setUser] = useState<SessionUserDTO | null>(null);
  const [loading, setLoading] = useState(() => readToken() !== null);
  const [pastDue, setPastDue] = useState<string | null>(null);
  const { t } = useTranslation();

  const forgetSession = useCallback(() => {
    setUser(null);
    setPastDue(null);
    queryClient.clear();
  }, [queryClient]);

  useEffect(() => onSessionEnded(forgetSession), [forgetSession]);

  // Past due: whoever pays (invoices:view, an admin) stays, kept to the payment pages (PastDueRoute);
  // anyone else is logged out, as the server refuses them everywhere.
  const latestUser = useRef<SessionUserDTO | null>(null);
  latestUser.current = user;
  useEffect(
    () =>
      onSubscriptionLocked((error) => {
        const { dueDate } = (error.body ?? {}) as { dueDate?: string };
        if (can(latestUser.current, "invoices:view")) {
          setPastDue(dueDate ?? "");
          return;
        }
        if (latestUser.current === null) return;
        toast(t("auth.subscriptionExpired", { date: formatDate(dueDate) }), "error");
        clearSession();
        forgetSession();
      }),
    [forgetSession, t],
  );

  useEffect(() => {
    if (!readToken()) return;
    let cancelled = false;
    api
      .get<SessionUserDTO>("/auth/me")
      .then((sessionUser) => {
        storeCampaignFlag(sessionUser);
        if (!cancelled) setUser(sessionUser);
      })
      .catch(() => {
        // No usable session: the visitor sees the login page.
      })
      .finally(() => {
        if (!cancelled) setLoading(false);
      });
    return () => {
      cancelled = true;
    };
  }, []);

  const login = useCallback(async (input: LoginInput) => {
    const answer = await api.post<LoginAnswer>("/auth/login", input, { anonymous: true });
    storeSession(answer);
    // A past-due company's admin logs in to the payment pages only (the server says `locked`).
    const { locked, dueDate } = answer.subscription;
    setPastDue(locked ? (dueDate ?? "") : null);
    setUser(answer.user);
    return answer;
  }, []);

  const logout = useCallback(async () => {
    try {
      await api.delete("/auth/logout");
    } catch {
      // The session ends here whatever the server says.
    }
    clearSession();
    forgetSession();
  }, [forgetSession]);

  const updateUser = useCallback((changed: UserDTO) => {
    setUser((current) => (current && current.id === changed.id ? { ...current, ...changed } : current));
    // A new profile brings other permissions, which only the server computes: read them again.
    const before = latestUser.current;
    if (before?.id === changed.id && before.profile !== changed.profile) {
      api
        .get<SessionUserDTO>("/auth/me")
        .then((sessionUser) =>
          setUser((now) =>
            now?.id === sessionUser.id ? { ...now, permissions: sessionUser.permissions } : now,
          ),
        )
        .catch(() => {
          // The next /auth/me (a reload) brings them; meanwhile the server refuses what they lost.
        });
    }
  }, []);

  // A payment moved the due date: the lock is gone (the server opens everything within seconds).
  const updateCompany = useCallback<AuthContextValue["updateCompany"]>((changes) => {
    setUser((current) => (current ? { ...current, company: { ...current.company, ...changes } } : current));
    if (changes.dueDate !== undefined) setPastDue(null);
  }, []);

  // Dates show on the company's clock from the first render of what the session shows.
  setDisplayTimeZone(user?.company.settings.find((s) => s.key === "timezone")?.value);

  const value = useMemo<AuthContextValue>(
    () => ({ user, loading, pastDue, login, logout, updateUser, markPastDue: setPastDue, updateCompany }),
    [user, loading, pastDue, login, logout, updateUser, updateCompany],
  );
  return <AuthContext value={value}>{children}</AuthContext>;
}

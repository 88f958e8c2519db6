import type { LoginAnswer, LoginInput, SessionUserDTO, UserDTO } from "@atende/contracts";
import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo, useState, type ReactNode } from "react";
import { api, onSessionEnded } from "../api/http";
import { clearSession, readToken, storeCampaignFlag, storeSession } from "../api/session";
import { AuthContext, type AuthContextValue } from "./AuthContext";

/**
 * Who is logged in: found on load from the stored token (/auth/me, refreshed by cookie when it has
 * expired), set by login. Without a stored token there is no sign of a session: the login page
 * shows at once, and no refresh is asked for (a visitor's would answer 401 in the console).
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [user, setUser] = useState<SessionUserDTO | null>(null);
  const [loading, setLoading] = useState(() => readToken() !== null);

  const forgetSession = useCallback(() => {
    setUser(null);
    queryClient.clear();
  }, [queryClient]);

  useEffect(() => onSessionEnded(forgetSession), [forgetSession]);

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
  }, []);

  const value = useMemo<AuthContextValue>(
    () => ({ user, loading, login, logout, updateUser }),
    [user, loading, login, logout, updateUser],
  );
  return <AuthContext value={value}>{children}</AuthContext>;
}

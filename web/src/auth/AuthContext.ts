import type { LoginAnswer, LoginInput, SessionCompanyDTO, SessionUserDTO, UserDTO } from "@atende/contracts";
import { createContext, useContext } from "react";

export interface AuthContextValue {
  user: SessionUserDTO | null;
  /** True until the first answer about the stored session. */
  loading: boolean;
  /**
   * The due date that passed, while the server keeps the company locked out for being past due
   * (an admin then reaches only /financeiro and /subscription); null otherwise.
   */
  pastDue: string | null;
  login(input: LoginInput): Promise<LoginAnswer>;
  logout(): Promise<void>;
  /** Merges a saved copy of the logged-in user (after editing one's own profile). */
  updateUser(user: UserDTO): void;
  /** The server said the company is past due (a `locked` event): an admin keeps the payment pages. */
  markPastDue(dueDate: string): void;
  /** Merges what changed in the user's company (a payment moved its due date, ended its trial). */
  updateCompany(changes: Partial<Pick<SessionCompanyDTO, "dueDate" | "trialExpiration" | "settings">>): void;
}

export const AuthContext = createContext<AuthContextValue | null>(null);

export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error("useAuth must be used inside AuthProvider");
  return value;
}

/** The logged-in user, for screens that only render behind the private-route guard. */
export function useSessionUser() {
  const { user } = useAuth();
  if (!user) throw new Error("useSessionUser needs a logged-in user");
  return user;
}

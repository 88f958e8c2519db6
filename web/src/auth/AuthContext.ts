import type { LoginAnswer, LoginInput, SessionUserDTO, UserDTO } from "@atende/contracts";
import { createContext, useContext } from "react";

export interface AuthContextValue {
  user: SessionUserDTO | null;
  /** True until the first answer about the stored session. */
  loading: boolean;
  login(input: LoginInput): Promise<LoginAnswer>;
  logout(): Promise<void>;
  /** Merges a saved copy of the logged-in user (after editing one's own profile). */
  updateUser(user: UserDTO): void;
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

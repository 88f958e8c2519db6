import type { LoginAnswer } from "@atende/contracts";

/** The session as kept in browser storage, with the spec's key names (the token is JSON). */
const KEYS = ["token", "companyId", "userId", "companyDueDate"] as const;

export function readToken(): string | null {
  const raw = localStorage.getItem("token");
  if (!raw) return null;
  try {
    const token: unknown = JSON.parse(raw);
    return typeof token === "string" && token ? token : null;
  } catch {
    return null;
  }
}

export function storeSession({ token, user }: Pick<LoginAnswer, "token" | "user">): void {
  localStorage.setItem("token", JSON.stringify(token));
  localStorage.setItem("companyId", String(user.companyId));
  localStorage.setItem("userId", String(user.id));
  localStorage.setItem("companyDueDate", user.company.dueDate ?? "");
}

export function clearSession(): void {
  for (const key of KEYS) localStorage.removeItem(key);
}

import type { LoginAnswer, SessionUserDTO } from "@atende/contracts";

/**
 * The spec's `cshow` flag: kept while the company's campaignsEnabled setting is on. The campaign
 * routes and their menu entries exist only while it is there.
 */
const CAMPAIGN_FLAG = "cshow";

/** The session as kept in browser storage, with the spec's key names (the token is JSON). */
const KEYS = ["token", "companyId", "userId", "companyDueDate", CAMPAIGN_FLAG] as const;

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
  storeCampaignFlag(user);
}

/** Written from every answer that names the logged-in user (login, refresh, /auth/me). */
export function storeCampaignFlag(user: SessionUserDTO): void {
  const setting = user.company.settings.find((s) => s.key === "campaignsEnabled")?.value;
  if (setting === "true" || setting === "enabled") localStorage.setItem(CAMPAIGN_FLAG, "true");
  else localStorage.removeItem(CAMPAIGN_FLAG);
}

export function hasCampaignFlag(): boolean {
  return localStorage.getItem(CAMPAIGN_FLAG) !== null;
}

export function clearSession(): void {
  for (const key of KEYS) localStorage.removeItem(key);
}

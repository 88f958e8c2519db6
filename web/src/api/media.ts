import i18n from "../i18n";
import { ApiError, refreshSession } from "./http";
import { readToken } from "./session";

/** Media URLs are authenticated: the bytes are fetched with the session and shown from a blob. */
export const mediaKeys = {
  blob: (url: string) => ["media", url] as const,
};

function getWithSession(url: string, signal?: AbortSignal): Promise<Response> {
  const token = readToken();
  return fetch(url, {
    headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), "Accept-Language": i18n.language },
    credentials: "include",
    signal,
  });
}

async function errorOf(response: Response): Promise<ApiError> {
  const text = await response.text().catch(() => "");
  try {
    return new ApiError(response.status, JSON.parse(text) as unknown);
  } catch {
    return new ApiError(response.status, text);
  }
}

/** A message's media as a blob (one token refresh if the session expired). */
export async function fetchMediaBlob(url: string, signal?: AbortSignal): Promise<Blob> {
  let response = await getWithSession(url, signal);
  if (!response.ok) {
    const error = await errorOf(response);
    if (error.code !== "ERR_SESSION_EXPIRED") throw error;
    await refreshSession();
    response = await getWithSession(url, signal);
    if (!response.ok) throw await errorOf(response);
  }
  return response.blob();
}

import i18n from "../i18n";
import { ApiError, refreshSession } from "./http";
import { readToken } from "./session";

/** Saves a file the app built or fetched: the browser downloads it through a temporary blob link. */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has taken the file by then; the object URL is no longer needed.
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * Downloads a file the server makes for the logged-in user (a report's CSV): with the session's
 * token, once more after a refresh when it had expired; its name from the answer, else `fallbackName`.
 */
export async function downloadWithSession(path: string, fallbackName: string): Promise<void> {
  const attempt = async () => {
    const token = readToken();
    const response = await fetch(path, {
      headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), "Accept-Language": i18n.language },
      credentials: "include",
    });
    if (!response.ok) {
      const text = await response.text();
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // not JSON: the text as it is
      }
      throw new ApiError(response.status, body);
    }
    return response;
  };
  let response: Response;
  try {
    response = await attempt();
  } catch (error) {
    if (!(error instanceof ApiError) || error.code !== "ERR_SESSION_EXPIRED") throw error;
    await refreshSession();
    response = await attempt();
  }
  const disposition = response.headers.get("content-disposition") ?? "";
  saveBlob(await response.blob(), /filename="([^"]+)"/.exec(disposition)?.[1] ?? fallbackName);
}

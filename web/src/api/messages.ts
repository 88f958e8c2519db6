import type { MessageDTO, MessagesPage } from "@atende/contracts";
import i18n from "../i18n";
import { api, ApiError, refreshSession } from "./http";
import { readToken } from "./session";

export const messageKeys = {
  all: ["messages"] as const,
  ticket: (ticketId: number) => [...messageKeys.all, ticketId] as const,
};

/** Page 1 is the newest; each page lists its messages oldest first. */
export function fetchMessages(
  ticketId: number,
  pageNumber: number,
  signal?: AbortSignal,
): Promise<MessagesPage> {
  return api.get<MessagesPage>(`/messages/${ticketId}`, { query: { pageNumber }, signal });
}

export function sendText(
  ticketId: number,
  body: string,
  opts: { quotedMsgId?: number; signMessage?: boolean } = {},
): Promise<MessageDTO> {
  return api.post<MessageDTO>(`/messages/${ticketId}`, {
    body,
    fromMe: true,
    read: 1,
    quotedMsg: opts.quotedMsgId ? { id: opts.quotedMsgId } : null,
    signMessage: opts.signMessage,
  });
}

/** Upload progress, 0 to 1. */
export type ProgressHandler = (fraction: number) => void;

/** One multipart POST through XMLHttpRequest, the only browser API that reports upload progress. */
function postForm(path: string, form: FormData, onProgress?: ProgressHandler): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", path);
    xhr.withCredentials = true;
    xhr.setRequestHeader("Accept", "application/json");
    xhr.setRequestHeader("Accept-Language", i18n.language);
    const token = readToken();
    if (token) xhr.setRequestHeader("Authorization", `Bearer ${token}`);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && onProgress) onProgress(event.loaded / event.total);
    };
    xhr.onerror = () => reject(new TypeError("Network error"));
    xhr.onabort = () => reject(new DOMException("Aborted", "AbortError"));
    xhr.onload = () => {
      let body: unknown = xhr.responseText;
      if ((xhr.getResponseHeader("content-type") ?? "").includes("json")) {
        try {
          body = JSON.parse(xhr.responseText) as unknown;
        } catch {
          // keep the text
        }
      }
      if (xhr.status >= 200 && xhr.status < 300) resolve(body);
      else reject(new ApiError(xhr.status, body));
    };
    xhr.send(form);
  });
}

/**
 * A multipart POST with the session rules of the HTTP client: an expired token is refreshed once and
 * the upload retried; a refused session is handed to the client, which ends it the usual way.
 */
async function uploadForm<T>(path: string, form: FormData, onProgress?: ProgressHandler): Promise<T> {
  try {
    return (await postForm(path, form, onProgress)) as T;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    if (error.status === 401) {
      // The client owns what ends a session; a plain call lets it see the 401 for itself.
      await api.get("/auth/me");
      throw error;
    }
    if (error.code !== "ERR_SESSION_EXPIRED") throw error;
  }
  await refreshSession();
  return (await postForm(path, form, onProgress)) as T;
}

/** Files as multipart `medias`, with the caption as `body` (it rides on the first file). */
export async function sendMedia(
  ticketId: number,
  files: File[],
  opts: { body?: string; quotedMsgId?: number; signMessage?: boolean; onProgress?: ProgressHandler } = {},
): Promise<MessageDTO[]> {
  const form = new FormData();
  // Fields first: the server reads the parts in order.
  form.append("body", opts.body ?? "");
  form.append("fromMe", "true");
  if (opts.quotedMsgId) form.append("quotedMsgId", String(opts.quotedMsgId));
  if (opts.signMessage !== undefined) form.append("signMessage", String(opts.signMessage));
  for (const file of files) form.append("medias", file, file.name);
  const sent = await uploadForm<MessageDTO | MessageDTO[]>(`/messages/${ticketId}`, form, opts.onProgress);
  return Array.isArray(sent) ? sent : [sent];
}

export function editMessage(id: number, body: string): Promise<MessageDTO> {
  return api.post<MessageDTO>(`/messages/edit/${id}`, { body });
}

export function deleteMessage(id: number): Promise<void> {
  return api.delete(`/messages/${id}`);
}

/** Reacts as the company; an empty emoji removes the reaction. */
export function reactToMessage(id: number, emoji: string): Promise<MessageDTO> {
  return api.post<MessageDTO>(`/messages/${id}/reactions`, { type: emoji });
}

export function forwardMessage(
  messageId: number,
  contactId: number,
  signMessage: boolean,
): Promise<MessageDTO> {
  return api.post<MessageDTO>("/message/forward", { messageId, contactId, signMessage });
}

export function retryMessage(id: number): Promise<MessageDTO> {
  return api.post<MessageDTO>(`/messages/${id}/retry`);
}

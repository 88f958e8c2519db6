import type { MessageDTO, MessagesPage } from "@atende/contracts";
import { api } from "./http";

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

/** Files as multipart `medias`, with the caption as `body`. */
export function sendMedia(
  ticketId: number,
  files: File[],
  opts: { body?: string; quotedMsgId?: number; signMessage?: boolean } = {},
): Promise<MessageDTO[]> {
  const form = new FormData();
  for (const file of files) form.append("medias", file, file.name);
  form.append("body", opts.body ?? "");
  form.append("fromMe", "true");
  if (opts.quotedMsgId) form.append("quotedMsgId", String(opts.quotedMsgId));
  if (opts.signMessage !== undefined) form.append("signMessage", String(opts.signMessage));
  return api.post<MessageDTO[]>(`/messages/${ticketId}`, form);
}

export function editMessage(id: number, body: string): Promise<MessageDTO> {
  return api.post<MessageDTO>(`/messages/edit/${id}`, { body });
}

export function deleteMessage(id: number): Promise<void> {
  return api.delete(`/messages/${id}`);
}

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

import type { CompanyEventPayloads, SimulatorPhoneMessage, SimulatorSendInput } from "@atende/contracts";
import type { QueryClient } from "@tanstack/react-query";
import i18n from "../i18n";
import { api, ApiError, refreshSession } from "./http";
import { readToken } from "./session";

/** A phone that has talked to a simulator connection. */
export interface SimulatorPhone {
  number: string;
  name: string;
  lastMessageAt: string | null;
}

/** `company-{id}-simulator`: a phone received a message, or the ack of one of its messages changed. */
export type SimulatorEvent = CompanyEventPayloads["simulator"];

/** What the page sends; `from` is always set by the page. */
export type SimulatorSend = Omit<SimulatorSendInput, "call"> & { call?: { isVideo: boolean } };

export const simulatorKeys = {
  phones: (whatsappId: number) => ["simulator", whatsappId, "phones"] as const,
  /** Every phone's conversation on one connection, whatever the number (the key's last part). */
  conversations: (whatsappId: number) => ["simulator", whatsappId, "messages"] as const,
  messages: (whatsappId: number, number: string) =>
    [...simulatorKeys.conversations(whatsappId), number] as const,
  media: (url: string) => ["simulator-media", url] as const,
};

/** An instant as ISO 8601 (the phones list may carry the database's own text form). */
function isoInstant(value: string | null): string | null {
  if (!value) return null;
  const date = new Date(value.replace(" ", "T").replace(/([+-]\d{2})$/, "$1:00"));
  return Number.isNaN(date.getTime()) ? value : date.toISOString();
}

export async function fetchPhones(whatsappId: number, signal?: AbortSignal): Promise<SimulatorPhone[]> {
  const phones = await api.get<SimulatorPhone[]>(`/simulator/${whatsappId}/phones`, { signal });
  return phones.map((phone) => ({ ...phone, lastMessageAt: isoInstant(phone.lastMessageAt) }));
}

export function fetchPhoneMessages(
  whatsappId: number,
  number: string,
  signal?: AbortSignal,
): Promise<SimulatorPhoneMessage[]> {
  return api.get<SimulatorPhoneMessage[]>(`/simulator/${whatsappId}/messages`, { query: { number }, signal });
}

export function sendFromPhone(whatsappId: number, input: SimulatorSend): Promise<{ id: string }> {
  return api.post<{ id: string }>(`/simulator/${whatsappId}/messages`, input);
}

/** Completes the pairing of a simulator connection that shows a QR code. */
export function scanWithSimulator(whatsappId: number): Promise<void> {
  return api.post(`/simulator/${whatsappId}/scan`);
}

/** The phone has read what the business sent it. */
export function markPhoneRead(whatsappId: number, number: string): Promise<void> {
  return api.post(`/simulator/${whatsappId}/read`, undefined, { query: { number } });
}

/**
 * The forms a typed number may take on the server, which stores E.164 digits (a Brazilian number
 * typed without 55 gets it; a Brazilian mobile gets its ninth digit).
 */
export function phoneForms(digits: string): string[] {
  const forms = new Set([digits]);
  if (digits.length === 10 || digits.length === 11) forms.add(`55${digits}`);
  for (const form of [...forms]) {
    const m = /^55(\d{2})([6-9]\d{7})$/.exec(form);
    if (m) forms.add(`55${m[1]}9${m[2]}`);
  }
  return [...forms];
}

/** Adds the message to the phone's conversation, or replaces it (same id), wherever it is cached. */
export function upsertPhoneMessage(
  queryClient: QueryClient,
  whatsappId: number,
  number: string,
  message: SimulatorPhoneMessage,
): void {
  const cached = queryClient.getQueriesData<SimulatorPhoneMessage[]>({
    queryKey: simulatorKeys.conversations(whatsappId),
  });
  for (const [key, list] of cached) {
    const keyNumber = String(key[3] ?? "");
    if (!list || !phoneForms(keyNumber).includes(number)) continue;
    queryClient.setQueryData<SimulatorPhoneMessage[]>(
      key,
      list.some((m) => m.id === message.id)
        ? list.map((m) => (m.id === message.id ? message : m))
        : [...list, message],
    );
  }
}

async function getBlob(url: string): Promise<Response> {
  const token = readToken();
  return fetch(url, {
    headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), "Accept-Language": i18n.language },
    credentials: "include",
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

/** Media of a phone message: an authenticated URL, fetched as a blob (one token refresh if expired). */
export async function fetchMediaBlob(url: string): Promise<Blob> {
  let response = await getBlob(url);
  if (!response.ok) {
    const error = await errorOf(response);
    if (error.code !== "ERR_SESSION_EXPIRED") throw error;
    await refreshSession();
    response = await getBlob(url);
    if (!response.ok) throw await errorOf(response);
  }
  return response.blob();
}

/** Digits only: how the server names a phone. */
export function phoneDigits(text: string): string {
  return text.replace(/\D/g, "");
}

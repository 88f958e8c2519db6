import type {
  WhatsappDetailDTO,
  WhatsappDTO,
  WhatsappHistoryProgress,
  WhatsappSaveInput,
  WhatsappSessionDTO,
  WhatsappTokenDTO,
} from "@atende/contracts";
import { useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { api } from "./http";
import { useCompanyEvent } from "./SocketProvider";

export const whatsappKeys = {
  /** The company's connections, as the connections page and the side menu badge share them. */
  all: ["whatsapps"] as const,
  /** The admin's full view of one connection (null: a new one, never fetched). */
  detail: (id: number | null) => ["whatsapp-detail", id] as const,
  /** The connections a user may be given as default (the user dialog). */
  options: () => ["whatsapp", "options"] as const,
};

export function fetchWhatsapps(signal?: AbortSignal): Promise<WhatsappDTO[]> {
  return api.get<WhatsappDTO[]>("/whatsapp", { signal });
}

export function fetchWhatsapp(id: number, signal?: AbortSignal): Promise<WhatsappDetailDTO> {
  return api.get<WhatsappDetailDTO>(`/whatsapp/${id}`, { signal });
}

/** What the connection dialog sends: the schema's fields (the Cloud part only for Cloud connections). */
export type WhatsappPayload = Omit<WhatsappSaveInput, "cloud"> & { cloud?: WhatsappSaveInput["cloud"] };

export function saveWhatsapp(id: number | null, payload: WhatsappPayload): Promise<WhatsappDetailDTO> {
  return id === null
    ? api.post<WhatsappDetailDTO>("/whatsapp", payload)
    : api.put<WhatsappDetailDTO>(`/whatsapp/${id}`, payload);
}

/** A new API token for the connection, answered this once; the current one stops working. */
export function rotateWhatsappToken(id: number): Promise<WhatsappTokenDTO> {
  return api.post<WhatsappTokenDTO>(`/whatsapp/${id}/token`);
}

export function deleteWhatsapp(id: number): Promise<void> {
  return api.delete(`/whatsapp/${id}`);
}

/** Starts (or restarts) the session: a new QR code follows. */
export function startSession(id: number): Promise<void> {
  return api.post(`/whatsappsession/${id}`);
}

export function requestNewQrCode(id: number): Promise<void> {
  return api.put(`/whatsappsession/${id}`);
}

/** Logs the connection out of WhatsApp. */
export function disconnectSession(id: number): Promise<void> {
  return api.delete(`/whatsappsession/${id}`);
}

/** Restarts every connection of the company. */
export function restartConnections(): Promise<void> {
  return api.post("/whatsapp-restart/");
}

/** Replaces the connection where listed, else adds it at the end. */
export function upsertWhatsapp(queryClient: QueryClient, whatsapp: WhatsappDTO): void {
  queryClient.setQueryData<WhatsappDTO[]>(whatsappKeys.all, (list) => {
    if (!list) return list;
    const listed = list.some((w) => w.id === whatsapp.id);
    return listed ? list.map((w) => (w.id === whatsapp.id ? whatsapp : w)) : [...list, whatsapp];
  });
}

export function removeWhatsapp(queryClient: QueryClient, whatsappId: number): void {
  queryClient.setQueryData<WhatsappDTO[]>(whatsappKeys.all, (list) =>
    list?.filter((w) => w.id !== whatsappId),
  );
}

/** A session update changes the status, QR code, retries, number and last update of one row. */
export function mergeSession(queryClient: QueryClient, session: WhatsappSessionDTO): void {
  queryClient.setQueryData<WhatsappDTO[]>(whatsappKeys.all, (list) =>
    list?.map((w) =>
      w.id === session.id
        ? {
            ...w,
            status: session.status,
            qrcode: session.qrcode,
            retries: session.retries,
            number: session.number,
            updatedAt: session.updatedAt,
          }
        : w,
    ),
  );
}

/**
 * Keeps the connections list current from the live channel (`whatsapp` and `whatsappSession`):
 * connections added, edited or deleted, and their sessions' state (QR code, connected, lost).
 */
export function useWhatsappsLive(enabled = true): void {
  const queryClient = useQueryClient();

  useCompanyEvent("whatsapp", (payload) => {
    if (!enabled) return;
    if (payload.action === "delete") removeWhatsapp(queryClient, payload.whatsappId);
    else upsertWhatsapp(queryClient, payload.whatsapp);
  });

  useCompanyEvent("whatsappSession", (payload) => {
    if (enabled && payload.action === "update") mergeSession(queryClient, payload.session);
  });
}

/**
 * The connections list, kept current by the live channel (useWhatsappsLive). Every holder
 * subscribes; the updates are idempotent, so two holders do no harm.
 */
export function useWhatsapps(enabled = true) {
  const query = useQuery({
    queryKey: whatsappKeys.all,
    queryFn: ({ signal }) => fetchWhatsapps(signal),
    enabled,
  });
  useWhatsappsLive(enabled);
  return query;
}

/**
 * The history imports under way, by connection (`whatsappHistory`): a connection linked again
 * imports what its phone kept, and the connections screen shows the count while it runs.
 */
export function useWhatsappHistory(): ReadonlyMap<number, WhatsappHistoryProgress> {
  const [runs, setRuns] = useState<ReadonlyMap<number, WhatsappHistoryProgress>>(new Map());
  useCompanyEvent("whatsappHistory", (progress) => {
    setRuns((current) => {
      const next = new Map(current);
      if (progress.running) next.set(progress.whatsappId, progress);
      else next.delete(progress.whatsappId);
      return next;
    });
  });
  return runs;
}

import {
  compareQueues,
  type QueueDetailDTO,
  type QueueOptionDTO,
  type ScheduleEntry,
} from "@atende/contracts";
import { useQuery, type QueryClient } from "@tanstack/react-query";
import { api } from "./http";

export const queueKeys = {
  /** The company's queues: the queues page and every queue picker share this cache. */
  all: ["queues"] as const,
  /** One queue's chatbot options. */
  options: (queueId: number) => ["queue-options", queueId] as const,
};

export function fetchQueueList(signal?: AbortSignal): Promise<QueueDetailDTO[]> {
  return api.get<QueueDetailDTO[]>("/queue", { signal });
}

export function useQueueList() {
  return useQuery({ queryKey: queueKeys.all, queryFn: ({ signal }) => fetchQueueList(signal) });
}

/** What the queue dialog sends. */
export interface QueuePayload {
  name: string;
  color: string;
  greetingMessage: string;
  outOfHoursMessage: string;
  orderQueue: number | null;
  integrationId: number | null;
  promptId: number | null;
  schedules: ScheduleEntry[];
  /** Service levels (issue 39): minutes to the first reply and to resolution (null: no target). */
  slaFirstResponseMinutes: number | null;
  slaResolutionMinutes: number | null;
  slaWarningPercent: number;
  slaPauseOnCustomer: boolean;
}

export function saveQueue(id: number | null, payload: QueuePayload): Promise<QueueDetailDTO> {
  return id === null
    ? api.post<QueueDetailDTO>("/queue", payload)
    : api.put<QueueDetailDTO>(`/queue/${id}`, payload);
}

export function deleteQueue(id: number): Promise<void> {
  return api.delete(`/queue/${id}`);
}

function fileForm(file: File): FormData {
  const form = new FormData();
  form.append("file", file);
  return form;
}

export function uploadQueueMedia(id: number, file: File): Promise<QueueDetailDTO> {
  return api.post<QueueDetailDTO>(`/queue/${id}/media-upload`, fileForm(file));
}

export function deleteQueueMedia(id: number): Promise<QueueDetailDTO> {
  return api.delete<QueueDetailDTO>(`/queue/${id}/media-upload`);
}

/** The queue's menu as a tree: the first menu's options, each with its sub-menu in `children`. */
export function fetchQueueOptions(queueId: number, signal?: AbortSignal): Promise<QueueOptionDTO[]> {
  return api.get<QueueOptionDTO[]>("/queue-options", { query: { queueId, parentId: -1 }, signal });
}

export interface QueueOptionPayload {
  title: string;
  message: string;
  option?: number;
}

export function createQueueOption(
  queueId: number,
  parentId: number | null,
  payload: QueueOptionPayload,
): Promise<QueueOptionDTO> {
  return api.post<QueueOptionDTO>("/queue-options", { ...payload, queueId, parentId });
}

export function updateQueueOption(id: number, payload: QueueOptionPayload): Promise<QueueOptionDTO> {
  return api.put<QueueOptionDTO>(`/queue-options/${id}`, payload);
}

export function deleteQueueOption(id: number): Promise<void> {
  return api.delete(`/queue-options/${id}`);
}

export function uploadQueueOptionMedia(id: number, file: File): Promise<QueueOptionDTO> {
  return api.post<QueueOptionDTO>(`/queue-options/${id}/media-upload`, fileForm(file));
}

export function deleteQueueOptionMedia(id: number): Promise<QueueOptionDTO> {
  return api.delete<QueueOptionDTO>(`/queue-options/${id}/media-upload`);
}

/** Create or update: replaces the queue where listed, else adds it; the list keeps the menu order. */
export function upsertQueue(queryClient: QueryClient, queue: QueueDetailDTO): void {
  queryClient.setQueryData<QueueDetailDTO[]>(queueKeys.all, (list) => {
    if (!list) return list;
    const rest = list.filter((q) => q.id !== queue.id);
    return [...rest, queue].sort(compareQueues);
  });
}

export function removeQueue(queryClient: QueryClient, queueId: number): void {
  queryClient.setQueryData<QueueDetailDTO[]>(queueKeys.all, (list) => list?.filter((q) => q.id !== queueId));
  queryClient.removeQueries({ queryKey: queueKeys.options(queueId) });
}

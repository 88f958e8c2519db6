import type {
  DialogflowTestAnswer,
  QueueIntegrationBody,
  QueueIntegrationDTO,
  QueueIntegrationsPage,
} from "@atende/contracts";
import type { QueryClient } from "@tanstack/react-query";
import { api } from "./http";
import { type PagedLists, removeFromLists, upsertInLists } from "./pagedLists";

export const queueIntegrationKeys = {
  all: ["queueIntegrations"] as const,
  /** Every cached page list, whatever the search text (the key's last part). */
  lists: () => [...queueIntegrationKeys.all, "pages"] as const,
  list: (search: string) => [...queueIntegrationKeys.lists(), search] as const,
  /** Every integration, to choose one in the connection and queue dialogs. */
  options: () => [...queueIntegrationKeys.all, "options"] as const,
};

export function fetchQueueIntegrationsPage(
  search: string,
  pageNumber: number,
  signal?: AbortSignal,
): Promise<QueueIntegrationsPage> {
  return api.get<QueueIntegrationsPage>("/queueIntegration/", {
    query: { searchParam: search, pageNumber },
    signal,
  });
}

/** Every integration of the company (page after page), for the selectors. */
export async function fetchAllQueueIntegrations(signal?: AbortSignal): Promise<QueueIntegrationDTO[]> {
  const all: QueueIntegrationDTO[] = [];
  for (let page = 1; page <= 50; page++) {
    const answer = await fetchQueueIntegrationsPage("", page, signal);
    all.push(...answer.queueIntegrations);
    if (!answer.hasMore) break;
  }
  return all;
}

export function saveQueueIntegration(
  id: number | null,
  body: QueueIntegrationBody,
): Promise<QueueIntegrationDTO> {
  return id === null
    ? api.post<QueueIntegrationDTO>("/queueIntegration", body)
    : api.put<QueueIntegrationDTO>(`/queueIntegration/${id}`, body);
}

export function deleteQueueIntegration(id: number): Promise<void> {
  return api.delete(`/queueIntegration/${id}`);
}

export function testDialogflow(body: {
  projectName: string;
  jsonContent: string;
  language: string;
  id?: number;
}): Promise<DialogflowTestAnswer> {
  return api.post<DialogflowTestAnswer>("/queueIntegration/testSession", body);
}

const integrationLists: PagedLists<"queueIntegrations", QueueIntegrationDTO> = {
  key: queueIntegrationKeys.lists(),
  field: "queueIntegrations",
  matches: (item, search) => !search.trim() || item.name.toLowerCase().includes(search.trim().toLowerCase()),
};

/** Create or update: replaces it where listed, else adds it first to the lists it matches. */
export function upsertQueueIntegration(queryClient: QueryClient, item: QueueIntegrationDTO): void {
  upsertInLists(queryClient, integrationLists, item);
  void queryClient.invalidateQueries({ queryKey: queueIntegrationKeys.options() });
}

export function removeQueueIntegration(queryClient: QueryClient, id: number): void {
  removeFromLists(queryClient, integrationLists, id);
  void queryClient.invalidateQueries({ queryKey: queueIntegrationKeys.options() });
}

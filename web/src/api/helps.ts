import type { HelpCreateInput, HelpDTO } from "@atende/contracts";
import type { QueryClient } from "@tanstack/react-query";
import { api } from "./http";

export const helpKeys = {
  all: ["helps"] as const,
  /** Every help video (GET /helps/list): the /helps page and the Ajuda tab. */
  list: () => [...helpKeys.all, "list"] as const,
};

export function fetchHelps(signal?: AbortSignal): Promise<HelpDTO[]> {
  return api.get<HelpDTO[]>("/helps/list", { signal });
}

export type HelpPayload = Pick<HelpCreateInput, "title" | "video" | "description">;

export function saveHelp(id: number | null, payload: HelpPayload): Promise<HelpDTO> {
  return id === null ? api.post<HelpDTO>("/helps", payload) : api.put<HelpDTO>(`/helps/${id}`, payload);
}

export function deleteHelp(id: number): Promise<void> {
  return api.delete(`/helps/${id}`);
}

export function refreshHelps(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: helpKeys.all });
}

/** YouTube's still of a video (an outside address: the card shows a placeholder when it fails). */
export function helpThumbnailUrl(video: string): string {
  return `https://img.youtube.com/vi/${encodeURIComponent(video)}/0.jpg`;
}

export function helpEmbedUrl(video: string): string {
  return `https://www.youtube.com/embed/${encodeURIComponent(video)}?autoplay=1`;
}

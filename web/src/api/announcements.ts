import {
  type AnnouncementAdminDTO,
  type AnnouncementDTO,
  type AnnouncementEventPayload,
  type AnnouncementsPage,
  type MyAnnouncements,
} from "@atende/contracts";
import type { QueryClient } from "@tanstack/react-query";
import { api } from "./http";
import { type PagedLists, removeFromLists, upsertInLists } from "./pagedLists";

export const announcementKeys = {
  all: ["announcements"] as const,
  /** The super user's page: every cached list, whatever the search text (the key's last part). */
  lists: () => [...announcementKeys.all, "pages"] as const,
  list: (search: string) => [...announcementKeys.lists(), search] as const,
  /** The top-bar popover: the caller's active announcements and their last look. */
  mine: () => [...announcementKeys.all, "mine"] as const,
};

export function fetchAnnouncementsPage(
  search: string,
  pageNumber: number,
  signal?: AbortSignal,
): Promise<AnnouncementsPage> {
  return api.get<AnnouncementsPage>("/announcements", { query: { searchParam: search, pageNumber }, signal });
}

export function fetchMyAnnouncements(signal?: AbortSignal): Promise<MyAnnouncements> {
  return api.get<MyAnnouncements>("/announcements/for-me", { signal });
}

export function markAnnouncementsSeen(): Promise<{ seenAt: string }> {
  return api.post<{ seenAt: string }>("/announcements/seen");
}

export interface AnnouncementPayload {
  title: string;
  text: string;
  priority: 1 | 2 | 3;
  status: boolean;
  allCompanies: boolean;
  companyIds: number[];
}

export function saveAnnouncement(
  id: number | null,
  payload: AnnouncementPayload,
): Promise<AnnouncementAdminDTO> {
  return id === null
    ? api.post<AnnouncementAdminDTO>("/announcements", payload)
    : api.put<AnnouncementAdminDTO>(`/announcements/${id}`, payload);
}

export function deleteAnnouncement(id: number): Promise<void> {
  return api.delete(`/announcements/${id}`);
}

export function uploadAnnouncementMedia(id: number, file: File): Promise<AnnouncementAdminDTO> {
  const form = new FormData();
  form.append("file", file, file.name);
  return api.post<AnnouncementAdminDTO>(`/announcements/${id}/media-upload`, form);
}

export function removeAnnouncementMedia(id: number): Promise<AnnouncementAdminDTO> {
  return api.delete<AnnouncementAdminDTO>(`/announcements/${id}/media-upload`);
}

/** The attachment's address, changing with the file (its blob is cached for good). */
export function announcementMediaUrl(record: Pick<AnnouncementDTO, "mediaUrl" | "mediaPath">): string | null {
  return record.mediaUrl && record.mediaPath
    ? `${record.mediaUrl}?v=${encodeURIComponent(record.mediaPath)}`
    : null;
}

function matchesSearch(record: AnnouncementDTO, search: string): boolean {
  const text = search.trim().toLowerCase();
  return !text || record.title.toLowerCase().includes(text) || record.text.toLowerCase().includes(text);
}

const announcementLists: PagedLists<"records", AnnouncementAdminDTO> = {
  key: announcementKeys.lists(),
  field: "records",
  matches: matchesSearch,
};

export function upsertAnnouncementInLists(queryClient: QueryClient, record: AnnouncementAdminDTO): void {
  upsertInLists(queryClient, announcementLists, record);
}

export function removeAnnouncementFromLists(queryClient: QueryClient, id: number): void {
  removeFromLists(queryClient, announcementLists, id);
}

const newestFirst = (x: AnnouncementDTO, y: AnnouncementDTO) =>
  Date.parse(y.publishedAt) - Date.parse(x.publishedAt) || y.id - x.id;

/** A live `company-announcement` (or the super user's own save) folded into the popover's list. */
export function applyToMyAnnouncements(queryClient: QueryClient, event: AnnouncementEventPayload): void {
  queryClient.setQueryData<MyAnnouncements>(announcementKeys.mine(), (mine) => {
    if (!mine) return mine;
    const id = event.action === "delete" ? event.id : event.record.id;
    const others = mine.records.filter((r) => r.id !== id);
    if (event.action === "delete" || !event.record.status) return { ...mine, records: others };
    return { ...mine, records: [...others, event.record].sort(newestFirst) };
  });
}

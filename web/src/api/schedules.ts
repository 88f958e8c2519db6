import type { ScheduleDTO, SchedulesPage } from "@atende/contracts";
import type { QueryClient } from "@tanstack/react-query";
import { api } from "./http";
import { type PagedLists, removeFromLists, upsertInLists } from "./pagedLists";

export const scheduleKeys = {
  all: ["schedules"] as const,
  /** Every cached page list of schedules, whatever the search text (the key's last part). */
  lists: () => [...scheduleKeys.all, "pages"] as const,
  list: (search: string) => [...scheduleKeys.lists(), search] as const,
  /** The calendar's months, by their first day (the key's last part). */
  months: () => [...scheduleKeys.all, "month"] as const,
  month: (from: string) => [...scheduleKeys.months(), from] as const,
};

export function fetchSchedulesPage(
  search: string,
  pageNumber: number,
  signal?: AbortSignal,
): Promise<SchedulesPage> {
  return api.get<SchedulesPage>("/schedules", { query: { searchParam: search, pageNumber }, signal });
}

/** Every schedule whose send time falls in [from, to): one calendar month. */
export async function fetchSchedulesBetween(
  from: Date,
  to: Date,
  signal?: AbortSignal,
): Promise<ScheduleDTO[]> {
  const page = await api.get<SchedulesPage>("/schedules", {
    query: { from: from.toISOString(), to: to.toISOString() },
    signal,
  });
  return page.schedules;
}

export interface SchedulePayload {
  body: string;
  contactId: number;
  /** An ISO instant (the browser's local choice, with its zone). */
  sendAt: string;
  whatsappId: number | null;
}

export function saveSchedule(id: number | null, payload: SchedulePayload): Promise<ScheduleDTO> {
  return id === null
    ? api.post<ScheduleDTO>("/schedules", payload)
    : api.put<ScheduleDTO>(`/schedules/${id}`, payload);
}

export function deleteSchedule(id: number): Promise<void> {
  return api.delete(`/schedules/${id}`);
}

export function uploadScheduleMedia(id: number, file: File): Promise<ScheduleDTO> {
  const form = new FormData();
  form.append("file", file, file.name);
  return api.post<ScheduleDTO>(`/schedules/${id}/media-upload`, form);
}

export function removeScheduleMedia(id: number): Promise<ScheduleDTO> {
  return api.delete<ScheduleDTO>(`/schedules/${id}/media-upload`);
}

function matchesSearch(schedule: ScheduleDTO, search: string): boolean {
  const text = search.trim().toLowerCase();
  return (
    !text ||
    schedule.contact.name.toLowerCase().includes(text) ||
    schedule.contact.number.includes(text) ||
    schedule.body.toLowerCase().includes(text)
  );
}

const bySendAtDesc = (x: ScheduleDTO, y: ScheduleDTO) => y.sendAt.localeCompare(x.sendAt) || y.id - x.id;

const scheduleLists: PagedLists<"schedules", ScheduleDTO> = {
  key: scheduleKeys.lists(),
  field: "schedules",
  matches: matchesSearch,
  order: bySendAtDesc,
};

/** Create or update: replaces the schedule where listed, else adds it to the lists and months it belongs to. */
export function upsertScheduleInLists(queryClient: QueryClient, schedule: ScheduleDTO): void {
  upsertInLists(queryClient, scheduleLists, schedule);
  // A month holds it or not by its send time, which an edit may move: refetch the months.
  void queryClient.invalidateQueries({ queryKey: scheduleKeys.months() });
}

export function removeScheduleFromLists(queryClient: QueryClient, id: number): void {
  removeFromLists(queryClient, scheduleLists, id);
  queryClient.setQueriesData<ScheduleDTO[]>({ queryKey: scheduleKeys.months() }, (list) =>
    list?.filter((s) => s.id !== id),
  );
}

import type { CompanyDTO, CompanySchedulesDTO, ScheduleEntry, SettingDTO } from "@atende/contracts";
import { useQuery, type QueryClient } from "@tanstack/react-query";
import { api } from "./http";

export const settingKeys = {
  all: ["settings"] as const,
  /** The company's settings (GET /settings): the settings page and the queue dialog read them. */
  company: () => [...settingKeys.all, "company"] as const,
  /** Whether the login page offers a sign-up (read before login). */
  viewRegister: () => [...settingKeys.all, "viewregister"] as const,
  /** Whether /signup takes a sign-up (read before login). */
  allowRegister: () => [...settingKeys.all, "allowregister"] as const,
};

export const companyKeys = {
  detail: (id: number) => ["company", id] as const,
};

export function fetchSettings(signal?: AbortSignal): Promise<SettingDTO[]> {
  return api.get<SettingDTO[]>("/settings", { signal });
}

export function useSettings() {
  return useQuery({ queryKey: settingKeys.company(), queryFn: ({ signal }) => fetchSettings(signal) });
}

/** One setting's value from the cached list; undefined while loading or when not set. */
export function settingValue(list: SettingDTO[] | undefined, key: string): string | undefined {
  return list?.find((s) => s.key === key)?.value;
}

/** A secret setting's hint (its last characters; the value itself is never sent); "" when none is stored. */
export function settingHint(list: SettingDTO[] | undefined, key: string): string {
  return list?.find((s) => s.key === key)?.hint ?? "";
}

export function updateSetting(key: string, value: string): Promise<SettingDTO> {
  return api.put<SettingDTO>(`/settings/${encodeURIComponent(key)}`, { key, value });
}

/** Removes a stored secret (DELETE /settings/{key}); a blank PUT would keep it. */
export function clearSetting(key: string): Promise<void> {
  return api.delete(`/settings/${encodeURIComponent(key)}`);
}

/** Writes a saved value into the cached list. */
export function storeSetting(queryClient: QueryClient, saved: SettingDTO): void {
  queryClient.setQueryData<SettingDTO[]>(settingKeys.company(), (list) => {
    if (!list) return list;
    return list.some((s) => s.key === saved.key)
      ? list.map((s) => (s.key === saved.key ? saved : s))
      : [...list, saved];
  });
}

export function fetchCompany(id: number, signal?: AbortSignal): Promise<CompanyDTO> {
  return api.get<CompanyDTO>(`/companies/${id}`, { signal });
}

export function saveCompanySchedules(id: number, schedules: ScheduleEntry[]): Promise<CompanySchedulesDTO> {
  return api.put<CompanySchedulesDTO>(`/companies/${id}/schedules`, { schedules });
}

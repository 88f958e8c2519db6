import type {
  CampaignAudienceDTO,
  CampaignCreateInput,
  CampaignDTO,
  CampaignReportDTO,
  CampaignSettingRow,
  CampaignSettingsInput,
  CampaignShippingDTO,
  CampaignsPage,
  CampaignTotals,
  FileListsPage,
} from "@atende/contracts";
import type { InfiniteData, QueryClient } from "@tanstack/react-query";
import { ApiError, api } from "./http";
import { downloadWithSession } from "./download";
import { type PagedLists, removeFromLists, upsertInLists } from "./pagedLists";

export const campaignKeys = {
  all: ["campaigns"] as const,
  /** Every cached page list of campaigns, whatever the search text (the key's last part). */
  lists: () => [...campaignKeys.all, "pages"] as const,
  list: (search: string) => [...campaignKeys.lists(), search] as const,
  /** One campaign's report pages, whatever the search text (the key's last part). */
  reports: (id: number) => [...campaignKeys.all, "report", id] as const,
  report: (id: number, search: string) => [...campaignKeys.reports(id), search] as const,
  /** How many contacts an audience has and how many opted out. */
  audience: (contactListId: number | null, tagListId: number | null) =>
    [...campaignKeys.all, "audience", contactListId, tagListId] as const,
  settings: () => ["campaign-settings"] as const,
  /** The choices of the dialog's selects. */
  contactListOptions: () => ["contact-lists", "options"] as const,
  fileListOptions: () => ["files", "options"] as const,
};

export function fetchCampaignsPage(
  search: string,
  pageNumber: number,
  signal?: AbortSignal,
): Promise<CampaignsPage> {
  return api.get<CampaignsPage>("/campaigns", { query: { searchParam: search, pageNumber }, signal });
}

export function fetchCampaign(id: number, signal?: AbortSignal): Promise<CampaignDTO> {
  return api.get<CampaignDTO>(`/campaigns/${id}`, { signal });
}

export function saveCampaign(id: number | null, payload: CampaignCreateInput): Promise<CampaignDTO> {
  return id === null
    ? api.post<CampaignDTO>("/campaigns", payload)
    : api.put<CampaignDTO>(`/campaigns/${id}`, payload);
}

export function deleteCampaign(id: number): Promise<void> {
  return api.delete(`/campaigns/${id}`);
}

export function cancelCampaign(id: number): Promise<CampaignDTO | undefined> {
  return api.post<CampaignDTO | undefined>(`/campaigns/${id}/cancel`);
}

export function restartCampaign(id: number): Promise<CampaignDTO | undefined> {
  return api.post<CampaignDTO | undefined>(`/campaigns/${id}/restart`);
}

/** The spec: a media name has its spaces replaced by underscores. */
export function campaignMediaName(name: string): string {
  return name.replace(/\s+/g, "_");
}

export function uploadCampaignMedia(id: number, file: File): Promise<CampaignDTO> {
  const form = new FormData();
  form.append("file", file, campaignMediaName(file.name));
  return api.post<CampaignDTO>(`/campaigns/${id}/media-upload`, form);
}

export function removeCampaignMedia(id: number): Promise<CampaignDTO> {
  return api.delete<CampaignDTO>(`/campaigns/${id}/media-upload`);
}

export function fetchCampaignAudience(
  contactListId: number | null,
  tagListId: number | null,
  signal?: AbortSignal,
): Promise<CampaignAudienceDTO> {
  return api.get<CampaignAudienceDTO>("/campaigns/audience", {
    query: { contactListId: contactListId ?? undefined, tagListId: tagListId ?? undefined },
    signal,
  });
}

export function fetchCampaignReportPage(
  id: number,
  search: string,
  pageNumber: number,
  signal?: AbortSignal,
): Promise<CampaignReportDTO> {
  return api.get<CampaignReportDTO>(`/campaigns/${id}/report`, {
    query: { searchParam: search, pageNumber },
    signal,
  });
}

export function fetchCampaignSettings(signal?: AbortSignal): Promise<CampaignSettingRow[]> {
  return api.get<CampaignSettingRow[]>("/campaign-settings", { signal });
}

export function saveCampaignSettings(settings: CampaignSettingsInput): Promise<unknown> {
  return api.post("/campaign-settings", { settings });
}

export interface NamedOption {
  id: number;
  name: string;
}

function routeMissing(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404 && error.code === "ERR_ROUTE_NOT_FOUND";
}

/** The company's contact lists (GET /contact-lists/list); none while the server has no lists module. */
export async function fetchContactListOptions(signal?: AbortSignal): Promise<NamedOption[]> {
  try {
    return await api.get<NamedOption[]>("/contact-lists/list", { signal });
  } catch (error) {
    if (routeMissing(error)) return [];
    throw error;
  }
}

/** The company's file lists (GET /files/, page after page: a company has a handful). */
export async function fetchFileListOptions(signal?: AbortSignal): Promise<NamedOption[]> {
  const options: NamedOption[] = [];
  try {
    for (let pageNumber = 1; pageNumber <= 50; pageNumber++) {
      const page = await api.get<FileListsPage>("/files", { query: { pageNumber }, signal });
      options.push(...page.files.map(({ id, name }) => ({ id, name })));
      if (!page.hasMore || page.files.length === 0) break;
    }
    return options;
  } catch (error) {
    if (routeMissing(error)) return [];
    throw error;
  }
}

function matchesSearch(record: CampaignDTO, search: string): boolean {
  const text = search.trim().toLowerCase();
  return !text || record.name.toLowerCase().includes(text);
}

const campaignLists: PagedLists<"records", CampaignDTO> = {
  key: campaignKeys.lists(),
  field: "records",
  matches: matchesSearch,
};

export function upsertCampaignInLists(queryClient: QueryClient, record: CampaignDTO): void {
  upsertInLists(queryClient, campaignLists, record);
}

export function removeCampaignFromLists(queryClient: QueryClient, id: number): void {
  removeFromLists(queryClient, campaignLists, id);
}

type ReportPages = InfiniteData<CampaignReportDTO, number>;

/** A campaign's new state in its open report: the header follows it. */
export function setReportCampaign(queryClient: QueryClient, record: CampaignDTO): void {
  queryClient.setQueriesData<ReportPages>({ queryKey: campaignKeys.reports(record.id) }, (data) =>
    data ? { ...data, pages: data.pages.map((page) => ({ ...page, campaign: record })) } : data,
  );
}

type Counted = Omit<CampaignTotals, "total">;

/** What one recipient adds to the totals (the server's rule: one of pending, sent, unconfirmed, skipped, failed). */
function contribution(row: CampaignShippingDTO | undefined): Counted {
  const sent = row?.state === "sent";
  const skipped = row?.state === "skipped";
  const one = (yes: boolean) => (yes ? 1 : 0);
  return {
    valid: one(row !== undefined && !skipped),
    pending: one(row?.state === "pending" || row?.state === "awaiting_confirmation"),
    awaitingConfirmation: one(row?.state === "awaiting_confirmation"),
    sent: one(sent),
    delivered: one(sent && (row.ack ?? 0) >= 2),
    read: one(sent && (row.ack ?? 0) >= 3),
    confirmationRequested: one(Boolean(row?.confirmationRequestedAt)),
    confirmed: one(Boolean(row?.confirmedAt)),
    unconfirmed: one(row?.state === "unconfirmed"),
    failed: one(row?.state === "failed"),
    skipped: one(skipped),
    optedOut: one(skipped && Boolean(row.error?.startsWith("ERR_CAMPAIGN_OPTED_OUT"))),
  };
}

/**
 * The totals after one recipient moved from `before` to `after`, for the progress events that come
 * without them (the server sends exact totals about once a second, and always with the last send).
 * A recipient not listed here is taken to have been pending, as every recipient starts.
 */
export function countChange(
  totals: CampaignTotals,
  before: CampaignShippingDTO | undefined,
  after: CampaignShippingDTO,
): CampaignTotals {
  const was = contribution(
    before ?? {
      ...after,
      state: "pending",
      ack: null,
      confirmedAt: null,
      confirmationRequestedAt: null,
      error: null,
    },
  );
  const now = contribution(after);
  const next = { ...totals };
  for (const key of Object.keys(now) as (keyof Counted)[])
    next[key] = Math.max(0, totals[key] - was[key] + now[key]);
  return next;
}

/**
 * One recipient's new state and the totals (counted here when the event has none) into every
 * cached search of the report: the row replaced where listed, added at the end when the list is
 * complete and the search matches it.
 */
export function applyReportProgress(
  queryClient: QueryClient,
  campaignId: number,
  totals: CampaignTotals | null,
  shipping: CampaignShippingDTO,
): void {
  const cached = queryClient.getQueriesData<ReportPages>({ queryKey: campaignKeys.reports(campaignId) });
  // The recipient as it was, wherever a cached search lists it.
  const before = cached
    .flatMap(([, data]) => data?.pages ?? [])
    .flatMap((page) => page.records)
    .find((row) => row.id === shipping.id);
  for (const [key, data] of cached) {
    if (!data) continue;
    const lastTotals = data.pages[data.pages.length - 1]?.totals;
    const newTotals = totals ?? (lastTotals ? countChange(lastTotals, before, shipping) : null);
    const search = String(key[key.length - 1] ?? "")
      .trim()
      .toLowerCase();
    const listed = data.pages.some((page) => page.records.some((row) => row.id === shipping.id));
    const last = data.pages.length - 1;
    const matches =
      !search || shipping.name.toLowerCase().includes(search) || shipping.number.includes(search);
    const pages = data.pages.map((page, index) => {
      let records = page.records;
      if (listed) records = records.map((row) => (row.id === shipping.id ? shipping : row));
      else if (index === last && !page.hasMore && matches) records = [...records, shipping];
      const added = !listed && records !== page.records;
      return {
        ...page,
        totals: newTotals ?? page.totals,
        records,
        count: added ? page.count + 1 : page.count,
      };
    });
    queryClient.setQueryData<ReportPages>(key, { ...data, pages });
  }
}

/** The report's recipients as the server's CSV file (the browser saves it). */
export function downloadCampaignReportCsv(campaign: Pick<CampaignDTO, "id">): Promise<void> {
  return downloadWithSession(`/campaigns/${campaign.id}/report.csv`, `campanha-${campaign.id}.csv`);
}

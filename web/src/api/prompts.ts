import type { PromptBody, PromptDTO, PromptsPage, TokenUsageDTO } from "@atende/contracts";
import type { QueryClient } from "@tanstack/react-query";
import { assistKeys } from "./assist";
import { api } from "./http";
import { type PagedLists, removeFromLists, upsertInLists } from "./pagedLists";

export const promptKeys = {
  all: ["prompts"] as const,
  lists: () => [...promptKeys.all, "pages"] as const,
  list: (search: string) => [...promptKeys.lists(), search] as const,
  /** Every prompt, to choose one in the connection and queue dialogs. */
  options: () => [...promptKeys.all, "options"] as const,
  /** The company's AI token usage. */
  usage: () => [...promptKeys.all, "usage"] as const,
};

export function fetchPromptsPage(
  search: string,
  pageNumber: number,
  signal?: AbortSignal,
): Promise<PromptsPage> {
  return api.get<PromptsPage>("/prompt", { query: { searchParam: search, pageNumber }, signal });
}

/** Every prompt of the company (page after page), for the selectors. */
export async function fetchAllPrompts(signal?: AbortSignal): Promise<PromptDTO[]> {
  const all: PromptDTO[] = [];
  for (let page = 1; page <= 50; page++) {
    const answer = await fetchPromptsPage("", page, signal);
    all.push(...answer.prompts);
    if (!answer.hasMore) break;
  }
  return all;
}

export function fetchTokenUsage(signal?: AbortSignal): Promise<TokenUsageDTO> {
  return api.get<TokenUsageDTO>("/prompt/usage", { signal });
}

export function savePrompt(id: number | null, body: PromptBody): Promise<PromptDTO> {
  return id === null ? api.post<PromptDTO>("/prompt", body) : api.put<PromptDTO>(`/prompt/${id}`, body);
}

export function deletePrompt(id: number): Promise<void> {
  return api.delete(`/prompt/${id}`);
}

const promptLists: PagedLists<"prompts", PromptDTO> = {
  key: promptKeys.lists(),
  field: "prompts",
  matches: (item, search) => !search.trim() || item.name.toLowerCase().includes(search.trim().toLowerCase()),
  order: (x, y) => x.name.localeCompare(y.name) || x.id - y.id,
};

export function upsertPrompt(queryClient: QueryClient, item: PromptDTO): void {
  upsertInLists(queryClient, promptLists, item);
  promptsChanged(queryClient);
}

export function removePrompt(queryClient: QueryClient, id: number): void {
  removeFromLists(queryClient, promptLists, id);
  promptsChanged(queryClient);
}

/** The prompt pickers, and whether the chat offers AI help (it needs a prompt with a key), read again. */
function promptsChanged(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: promptKeys.options() });
  void queryClient.invalidateQueries({ queryKey: assistKeys.status() });
}

import { LIMITS } from "@atende/contracts";
import { useInfiniteQuery, type QueryKey } from "@tanstack/react-query";
import { useCallback, useState } from "react";
import { useDebouncedValue } from "./useDebouncedValue";

/** What every paged list answer carries besides its rows. */
interface ListPage {
  count: number;
  hasMore: boolean;
}

export interface SearchableListOptions<Page extends ListPage, Item> {
  /** The list's cache key for one search text: the domain's key factory (`tagKeys.list`). */
  queryKey(search: string): QueryKey;
  fetchPage(search: string, pageNumber: number, signal: AbortSignal): Promise<Page>;
  /** The rows of one page (each domain names its array). */
  itemsOf(page: Page): Item[];
  /** A shorter search text lists everything (the contact search starts at 3 characters). */
  minSearchLength?: number;
  /** False while the list is not shown (the schedules calendar): nothing is fetched. */
  enabled?: boolean;
}

/** A list page's state: what `InfiniteTable` draws and `ListPage`'s search box edits. */
export interface SearchableList<Item> {
  /** The search box's text, as typed. */
  searchText: string;
  setSearchText(text: string): void;
  /** The text the list is filtered by: trimmed, settled for 500 ms, "" when too short. */
  search: string;
  items: Item[];
  /** The total for the search, once the first page arrived. */
  count: number | undefined;
  /** The first page or the next one is on its way. */
  loading: boolean;
  hasMore: boolean;
  loadMore(): void;
}

/**
 * Search text → debounce (LIMITS.searchDebounceMs) → paged query, one page at a time. The table
 * asks for the next page when scrolled near its end (`InfiniteTable`).
 */
export function useSearchableList<Page extends ListPage, Item>(
  options: SearchableListOptions<Page, Item>,
): SearchableList<Item> {
  const { queryKey, fetchPage, itemsOf, minSearchLength = 0, enabled } = options;
  const [searchText, setSearchText] = useState("");
  const settled = useDebouncedValue(searchText.trim(), LIMITS.searchDebounceMs);
  const search = settled.length >= minSearchLength ? settled : "";

  const list = useInfiniteQuery({
    queryKey: queryKey(search),
    queryFn: ({ pageParam, signal }) => fetchPage(search, pageParam, signal),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
    enabled,
  });
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = list;

  const loadMore = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  return {
    searchText,
    setSearchText,
    search,
    items: list.data?.pages.flatMap(itemsOf) ?? [],
    count: list.data?.pages[0]?.count,
    loading: list.isPending || isFetchingNextPage,
    hasMore: Boolean(hasNextPage),
    loadMore,
  };
}

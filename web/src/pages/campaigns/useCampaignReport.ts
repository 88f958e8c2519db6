import { LIMITS } from "@atende/contracts";
import { useInfiniteQuery } from "@tanstack/react-query";
import { useCallback, useState } from "react";
import { campaignKeys, fetchCampaignReportPage } from "../../api/campaigns";
import { useDebouncedValue } from "../../hooks/useDebouncedValue";

/**
 * One campaign's report: its header and totals (from the first page, kept live) and the recipients,
 * searched (500 ms debounce) and paged as any list page.
 */
export function useCampaignReport(campaignId: number) {
  const [searchText, setSearchText] = useState("");
  const search = useDebouncedValue(searchText.trim(), LIMITS.searchDebounceMs);
  const query = useInfiniteQuery({
    queryKey: campaignKeys.report(campaignId, search),
    queryFn: ({ pageParam, signal }) => fetchCampaignReportPage(campaignId, search, pageParam, signal),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
    placeholderData: (previous) => previous,
  });
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;
  const loadMore = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);
  const pages = query.data?.pages ?? [];
  const first = pages[0];
  // Totals travel on every page, the live ones on all of them: the last page read is the newest.
  const totals = pages[pages.length - 1]?.totals ?? first?.totals;
  return {
    error: query.error,
    campaign: first?.campaign,
    totals,
    list: {
      searchText,
      setSearchText,
      search,
      items: pages.flatMap((page) => page.records),
      count: first?.count,
      loading: query.isPending || isFetchingNextPage,
      hasMore: Boolean(hasNextPage),
      loadMore,
    },
  };
}

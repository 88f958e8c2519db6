import type { InfiniteData, QueryClient, QueryKey } from "@tanstack/react-query";

/**
 * One domain's cached paged lists (one per search text, the text being the key's last part), as
 * live events and saves edit them in place instead of refetching.
 */
export interface PagedLists<K extends string, Item extends { id: number }> {
  /** The prefix of every list's key (`tagKeys.lists()`). */
  key: QueryKey;
  /** The page's array of rows ("tags", "records"...). */
  field: K;
  /** Whether the list searched for `search` shows the item: a new item joins only those. */
  matches(item: Item, search: string): boolean;
  /** The first page's order once a new item joins it; without one the item comes first. */
  order?(x: Item, y: Item): number;
}

type Page<K extends string, Item> = { count: number } & Record<K, Item[]>;
type Pages<K extends string, Item> = InfiniteData<Page<K, Item>, number>;

/** Create or update: replaces the item where listed, else adds it to the first page of the lists it matches. */
export function upsertInLists<K extends string, Item extends { id: number }>(
  queryClient: QueryClient,
  lists: PagedLists<K, Item>,
  item: Item,
): void {
  const { key, field, order } = lists;
  for (const [listKey, data] of queryClient.getQueriesData<Pages<K, Item>>({ queryKey: key })) {
    if (!data) continue;
    const listed = data.pages.some((page) => page[field].some((row) => row.id === item.id));
    const search = String(listKey[listKey.length - 1] ?? "");
    if (!listed && !lists.matches(item, search)) continue;
    const pages = listed
      ? data.pages.map((page) =>
          withRows(
            page,
            field,
            page[field].map((row) => (row.id === item.id ? item : row)),
          ),
        )
      : data.pages.map((page, index) => {
          if (index !== 0) return page;
          const rows = [item, ...page[field]];
          return { ...withRows(page, field, order ? rows.sort(order) : rows), count: page.count + 1 };
        });
    queryClient.setQueryData<Pages<K, Item>>(listKey, { ...data, pages });
  }
}

export function removeFromLists<K extends string, Item extends { id: number }>(
  queryClient: QueryClient,
  lists: PagedLists<K, Item>,
  id: number,
): void {
  const { key, field } = lists;
  queryClient.setQueriesData<Pages<K, Item>>({ queryKey: key }, (data) => {
    if (!data?.pages.some((page) => page[field].some((row) => row.id === id))) return data;
    return {
      ...data,
      pages: data.pages.map((page) => ({
        ...withRows(
          page,
          field,
          page[field].filter((row) => row.id !== id),
        ),
        count: Math.max(0, page.count - 1),
      })),
    };
  });
}

function withRows<K extends string, Item>(page: Page<K, Item>, field: K, rows: Item[]): Page<K, Item> {
  return { ...page, [field]: rows };
}

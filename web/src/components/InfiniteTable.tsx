import { LIMITS } from "@atende/contracts";
import {
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  type SxProps,
  type TableCellProps,
  type Theme,
} from "@mui/material";
import { useEffect, useRef, type ReactNode } from "react";
import type { SearchableList } from "../hooks/useSearchableList";
import { EmptyRow, SkeletonRows } from "./TableStates";

export interface InfiniteTableColumn {
  label: ReactNode;
  align?: TableCellProps["align"];
  sx?: SxProps<Theme>;
}

interface InfiniteTableProps<Item> {
  list: Pick<SearchableList<Item>, "items" | "loading" | "hasMore" | "loadMore">;
  columns: InfiniteTableColumn[];
  /** One item's `TableRow`, with its key. */
  renderRow(item: Item): ReactNode;
  /** The sentence shown when there is nothing to list. */
  empty: ReactNode;
  /** Actions under that sentence (DESIGN: a sentence and an action when empty). */
  emptyActions?: ReactNode;
  /** Placeholder rows while a page loads; by default three grey rows across every column. */
  skeleton?: ReactNode;
  "aria-label"?: string;
  /** On the scrolling box. */
  "data-testid"?: string;
}

function nearEnd(element: HTMLElement): boolean {
  return element.scrollHeight - element.scrollTop - element.clientHeight < LIMITS.infiniteScrollThresholdPx;
}

/** A list page's table: sticky header, its rows, and the next page once scrolled within 100 px of the end. */
export function InfiniteTable<Item>({
  list,
  columns,
  renderRow,
  empty,
  emptyActions,
  skeleton,
  ...labels
}: InfiniteTableProps<Item>) {
  const { items, loading, hasMore, loadMore } = list;
  const scroller = useRef<HTMLDivElement>(null);

  // A first page that does not fill the box leaves nothing to scroll: ask for more right away.
  useEffect(() => {
    const element = scroller.current;
    if (element && hasMore && !loading && nearEnd(element)) loadMore();
  }, [items.length, hasMore, loading, loadMore]);

  return (
    <TableContainer
      ref={scroller}
      data-testid={labels["data-testid"]}
      onScroll={(event) => {
        if (hasMore && !loading && nearEnd(event.currentTarget)) loadMore();
      }}
      sx={{ flex: 1, minHeight: 0 }}
    >
      <Table stickyHeader size="small" aria-label={labels["aria-label"]}>
        <TableHead>
          <TableRow>
            {columns.map((column, index) => (
              <TableCell key={index} align={column.align} sx={column.sx}>
                {column.label}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {items.map(renderRow)}
          {loading && (skeleton ?? <SkeletonRows rows={3} columns={columns.length} />)}
          {!loading && items.length === 0 && (
            <EmptyRow columns={columns.length} py={4} actions={emptyActions}>
              {empty}
            </EmptyRow>
          )}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

import { Skeleton, TableCell, TableRow, Typography } from "@mui/material";
import type { ReactNode } from "react";

/** Grey placeholder rows while a table's first page loads (hidden from screen readers). */
export function SkeletonRows({ rows, columns }: { rows: number; columns: number }) {
  return Array.from({ length: rows }, (_, row) => (
    <TableRow key={`skeleton-${row}`} aria-hidden>
      {Array.from({ length: columns }, (_, cell) => (
        <TableCell key={cell}>
          <Skeleton />
        </TableCell>
      ))}
    </TableRow>
  ));
}

/** One row across the whole table that says there is nothing to list. */
export function EmptyRow({
  columns,
  children,
  py = 3,
}: {
  columns: number;
  children: ReactNode;
  py?: number;
}) {
  return (
    <TableRow>
      <TableCell colSpan={columns}>
        <Typography color="text.secondary" sx={{ py, textAlign: "center" }}>
          {children}
        </Typography>
      </TableCell>
    </TableRow>
  );
}

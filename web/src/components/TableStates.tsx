import { Skeleton, Stack, TableCell, TableRow, Typography } from "@mui/material";
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

/** One row across the whole table that says there is nothing to list, with what to do about it if given. */
export function EmptyRow({
  columns,
  children,
  py = 3,
  actions,
}: {
  columns: number;
  children: ReactNode;
  py?: number;
  actions?: ReactNode;
}) {
  if (actions)
    return (
      <TableRow>
        <TableCell colSpan={columns}>
          <Stack spacing={2} sx={{ py, alignItems: "center" }}>
            <Typography color="text.secondary" sx={{ textAlign: "center" }}>
              {children}
            </Typography>
            {actions}
          </Stack>
        </TableCell>
      </TableRow>
    );
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

import DeleteIcon from "@mui/icons-material/Delete";
import EditIcon from "@mui/icons-material/Edit";
import { IconButton, TableCell } from "@mui/material";
import type { ReactNode } from "react";

interface RowActionsProps {
  /** What the row is called: a screen reader hears "Editar Vendas", not one more "Editar". */
  name: string;
  editLabel: string;
  deleteLabel: string;
  onEdit?: () => void;
  onDelete?: () => void;
  /** Buttons of the row's own before edit and delete. */
  children?: ReactNode;
}

/** The last cell of a table row: edit and delete as small icon buttons, each named with the row. */
export function RowActions({ name, editLabel, deleteLabel, onEdit, onDelete, children }: RowActionsProps) {
  return (
    <TableCell align="center" sx={{ whiteSpace: "nowrap" }}>
      {children}
      {onEdit && (
        <IconButton size="small" aria-label={`${editLabel} ${name}`} onClick={onEdit}>
          <EditIcon fontSize="small" />
        </IconButton>
      )}
      {onDelete && (
        <IconButton size="small" aria-label={`${deleteLabel} ${name}`} onClick={onDelete}>
          <DeleteIcon fontSize="small" />
        </IconButton>
      )}
    </TableCell>
  );
}

import type { TagDTO } from "@atende/contracts";
import ViewKanbanIcon from "@mui/icons-material/ViewKanbanOutlined";
import { TableCell, TableRow, Tooltip } from "@mui/material";
import { useTranslation } from "react-i18next";
import { InfiniteTable } from "../../components/InfiniteTable";
import { TagChip } from "../../components/TagChip";
import type { SearchableList } from "../../hooks/useSearchableList";
import { RowActions } from "../../components/RowActions";

interface TagsTableProps {
  list: SearchableList<TagDTO>;
  onEdit(tag: TagDTO): void;
  onDelete(tag: TagDTO): void;
}

/** The tags as chips with their ticket count, loading the next page within 100 px of the end. */
export function TagsTable({ list, onEdit, onDelete }: TagsTableProps) {
  const { t } = useTranslation();
  return (
    <InfiniteTable
      list={list}
      columns={[
        { label: t("tags.columns.name") },
        { label: t("tags.columns.tickets"), align: "center" },
        { label: t("tags.columns.kanban"), align: "center" },
        { label: t("tags.columns.actions"), align: "center" },
      ]}
      empty={t(list.search !== "" ? "tags.emptySearch" : "tags.empty")}
      renderRow={(tag) => (
        <TableRow key={tag.id} hover data-testid={`tag-row-${tag.id}`}>
          <TableCell sx={{ maxWidth: 360 }}>
            <TagChip name={tag.name} color={tag.color} />
          </TableCell>
          <TableCell align="center" sx={{ whiteSpace: "nowrap" }}>
            {t("tags.ticketsCount", { count: tag.ticketsCount })}
          </TableCell>
          <TableCell align="center">
            {tag.kanban === 1 && (
              <Tooltip title={t("tags.kanbanLane")}>
                <ViewKanbanIcon fontSize="small" color="primary" titleAccess={t("tags.kanbanLane")} />
              </Tooltip>
            )}
          </TableCell>
          <RowActions
            name={tag.name}
            editLabel={t("tags.edit")}
            deleteLabel={t("tags.delete")}
            onEdit={() => onEdit(tag)}
            onDelete={() => onDelete(tag)}
          />
        </TableRow>
      )}
    />
  );
}

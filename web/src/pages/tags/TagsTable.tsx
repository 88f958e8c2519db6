import { LIMITS, type TagDTO } from "@atende/contracts";
import DeleteIcon from "@mui/icons-material/DeleteOutlineOutlined";
import EditIcon from "@mui/icons-material/EditOutlined";
import ViewKanbanIcon from "@mui/icons-material/ViewKanbanOutlined";
import {
  IconButton,
  Skeleton,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Tooltip,
  Typography,
} from "@mui/material";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { TagChip } from "../../components/TagChip";

interface TagsTableProps {
  tags: TagDTO[];
  loading: boolean;
  hasMore: boolean;
  searching: boolean;
  onLoadMore(): void;
  onEdit(tag: TagDTO): void;
  onDelete(tag: TagDTO): void;
}

const COLUMNS = 4;

function SkeletonRows() {
  return Array.from({ length: 3 }, (_, row) => (
    <TableRow key={`skeleton-${row}`} aria-hidden>
      {Array.from({ length: COLUMNS }, (_, cell) => (
        <TableCell key={cell}>
          <Skeleton />
        </TableCell>
      ))}
    </TableRow>
  ));
}

/** The tags as chips with their ticket count, loading the next page within 100 px of the end. */
export function TagsTable({
  tags,
  loading,
  hasMore,
  searching,
  onLoadMore,
  onEdit,
  onDelete,
}: TagsTableProps) {
  const { t } = useTranslation();
  const scroller = useRef<HTMLDivElement>(null);

  function nearEnd(element: HTMLElement): boolean {
    return element.scrollHeight - element.scrollTop - element.clientHeight < LIMITS.infiniteScrollThresholdPx;
  }

  // A first page that does not fill the box leaves nothing to scroll: ask for more right away.
  useEffect(() => {
    const element = scroller.current;
    if (element && hasMore && !loading && nearEnd(element)) onLoadMore();
  }, [tags.length, hasMore, loading, onLoadMore]);

  return (
    <TableContainer
      ref={scroller}
      onScroll={(event) => {
        if (hasMore && !loading && nearEnd(event.currentTarget)) onLoadMore();
      }}
      sx={{ flex: 1, minHeight: 0 }}
    >
      <Table stickyHeader size="small">
        <TableHead>
          <TableRow>
            <TableCell>{t("tags.columns.name")}</TableCell>
            <TableCell align="center">{t("tags.columns.tickets")}</TableCell>
            <TableCell align="center">{t("tags.columns.kanban")}</TableCell>
            <TableCell align="center">{t("tags.columns.actions")}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {tags.map((tag) => (
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
              <TableCell align="center" sx={{ whiteSpace: "nowrap" }}>
                <IconButton
                  size="small"
                  aria-label={`${t("tags.edit")} ${tag.name}`}
                  onClick={() => onEdit(tag)}
                >
                  <EditIcon fontSize="small" />
                </IconButton>
                <IconButton
                  size="small"
                  aria-label={`${t("tags.delete")} ${tag.name}`}
                  onClick={() => onDelete(tag)}
                >
                  <DeleteIcon fontSize="small" />
                </IconButton>
              </TableCell>
            </TableRow>
          ))}
          {loading && <SkeletonRows />}
          {!loading && tags.length === 0 && (
            <TableRow>
              <TableCell colSpan={COLUMNS}>
                <Typography color="text.secondary" sx={{ py: 4, textAlign: "center" }}>
                  {t(searching ? "tags.emptySearch" : "tags.empty")}
                </Typography>
              </TableCell>
            </TableRow>
          )}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

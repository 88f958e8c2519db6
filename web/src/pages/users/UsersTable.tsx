import { LIMITS, type UserDTO } from "@atende/contracts";
import DeleteIcon from "@mui/icons-material/DeleteOutlineOutlined";
import EditIcon from "@mui/icons-material/EditOutlined";
import {
  Box,
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

interface UsersTableProps {
  users: UserDTO[];
  loading: boolean;
  hasMore: boolean;
  searching: boolean;
  onLoadMore(): void;
  onEdit(user: UserDTO): void;
  onDelete(user: UserDTO): void;
}

const COLUMNS = 6;

function OnlineDot({ online }: { online: boolean }) {
  const { t } = useTranslation();
  const label = t(online ? "users.online" : "users.offline");
  return (
    <Tooltip title={label}>
      <Box
        role="img"
        aria-label={label}
        sx={{
          width: 12,
          height: 12,
          borderRadius: "50%",
          mx: "auto",
          bgcolor: online ? "success.main" : "grey.500",
        }}
      />
    </Tooltip>
  );
}

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

/** The users, loading the next page when scrolled within 100 px of the end. */
export function UsersTable({
  users,
  loading,
  hasMore,
  searching,
  onLoadMore,
  onEdit,
  onDelete,
}: UsersTableProps) {
  const { t } = useTranslation();
  const scroller = useRef<HTMLDivElement>(null);

  function nearEnd(element: HTMLElement): boolean {
    return element.scrollHeight - element.scrollTop - element.clientHeight < LIMITS.infiniteScrollThresholdPx;
  }

  // A first page that does not fill the box leaves nothing to scroll: ask for more right away.
  useEffect(() => {
    const element = scroller.current;
    if (element && hasMore && !loading && nearEnd(element)) onLoadMore();
  }, [users.length, hasMore, loading, onLoadMore]);

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
            <TableCell>{t("users.columns.id")}</TableCell>
            <TableCell align="center">{t("users.columns.status")}</TableCell>
            <TableCell>{t("users.columns.name")}</TableCell>
            <TableCell>{t("users.columns.email")}</TableCell>
            <TableCell>{t("users.columns.profile")}</TableCell>
            <TableCell align="center">{t("users.columns.actions")}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {users.map((user) => (
            <TableRow key={user.id} hover>
              <TableCell>{user.id}</TableCell>
              <TableCell align="center">
                <OnlineDot online={user.online} />
              </TableCell>
              <TableCell>{user.name}</TableCell>
              <TableCell>{user.email}</TableCell>
              <TableCell>{t(`profiles.${user.profile}`)}</TableCell>
              <TableCell align="center" sx={{ whiteSpace: "nowrap" }}>
                <IconButton size="small" aria-label={t("users.edit")} onClick={() => onEdit(user)}>
                  <EditIcon fontSize="small" />
                </IconButton>
                <IconButton size="small" aria-label={t("users.delete")} onClick={() => onDelete(user)}>
                  <DeleteIcon fontSize="small" />
                </IconButton>
              </TableCell>
            </TableRow>
          ))}
          {loading && <SkeletonRows />}
          {!loading && users.length === 0 && (
            <TableRow>
              <TableCell colSpan={COLUMNS}>
                <Typography color="text.secondary" sx={{ py: 4, textAlign: "center" }}>
                  {t(searching ? "users.emptySearch" : "users.empty")}
                </Typography>
              </TableCell>
            </TableRow>
          )}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

import { type UserDTO, mayChangeUser } from "@atende/contracts";
import DeleteIcon from "@mui/icons-material/DeleteOutlineOutlined";
import EditIcon from "@mui/icons-material/EditOutlined";
import { Box, IconButton, TableCell, TableRow, Tooltip } from "@mui/material";
import { useTranslation } from "react-i18next";
import { useAuth } from "../../auth/AuthContext";
import { InfiniteTable } from "../../components/InfiniteTable";
import type { SearchableList } from "../../hooks/useSearchableList";

interface UsersTableProps {
  list: SearchableList<UserDTO>;
  onEdit(user: UserDTO): void;
  onDelete(user: UserDTO): void;
}

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

/** The users, loading the next page when scrolled within 100 px of the end. */
export function UsersTable({ list, onEdit, onDelete }: UsersTableProps) {
  const { t } = useTranslation();
  const { user: me } = useAuth();
  return (
    <InfiniteTable
      list={list}
      columns={[
        { label: t("users.columns.id") },
        { label: t("users.columns.status"), align: "center" },
        { label: t("users.columns.name") },
        { label: t("users.columns.email") },
        { label: t("users.columns.profile") },
        { label: t("users.columns.actions"), align: "center" },
      ]}
      empty={t(list.search !== "" ? "users.emptySearch" : "users.empty")}
      renderRow={(user) => (
        <TableRow key={user.id} hover>
          <TableCell>{user.id}</TableCell>
          <TableCell align="center">
            <OnlineDot online={user.online} />
          </TableCell>
          <TableCell>{user.name}</TableCell>
          <TableCell>{user.email}</TableCell>
          <TableCell>{t(`profiles.${user.profile}`)}</TableCell>
          <TableCell align="center" sx={{ whiteSpace: "nowrap" }}>
            {/* A super user's row is the platform's: only a super user changes it (the server's rule). */}
            {me && mayChangeUser(me, user) && (
              <>
                <IconButton size="small" aria-label={t("users.edit")} onClick={() => onEdit(user)}>
                  <EditIcon fontSize="small" />
                </IconButton>
                <IconButton size="small" aria-label={t("users.delete")} onClick={() => onDelete(user)}>
                  <DeleteIcon fontSize="small" />
                </IconButton>
              </>
            )}
          </TableCell>
        </TableRow>
      )}
    />
  );
}

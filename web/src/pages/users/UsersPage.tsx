import { LIMITS, type UserDTO } from "@atende/contracts";
import PersonAddIcon from "@mui/icons-material/PersonAddOutlined";
import SearchIcon from "@mui/icons-material/Search";
import { Box, Button, InputAdornment, Paper, Stack, TextField, Typography } from "@mui/material";
import { useInfiniteQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useState } from "react";
import { useTranslation } from "react-i18next";
import { useCompanyEvent } from "../../api/SocketProvider";
import { toast, toastError } from "../../api/toast";
import {
  deleteUser,
  fetchUsersPage,
  removeUserFromLists,
  upsertUserInLists,
  usersListKey,
} from "../../api/users";
import { ConfirmationDialog } from "../../components/ConfirmationDialog";
import { useDebouncedValue } from "../../components/useDebouncedValue";
import { UserModal } from "../../components/UserModal/UserModal";
import { UsersTable } from "./UsersTable";

/** Which user the dialog edits: null creates a new one; undefined means the dialog is closed. */
type Editing = UserDTO | null | undefined;

export function UsersPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [searchText, setSearchText] = useState("");
  const search = useDebouncedValue(searchText.trim(), LIMITS.searchDebounceMs);
  const [editing, setEditing] = useState<Editing>(undefined);
  const [deleting, setDeleting] = useState<UserDTO | null>(null);
  const [deleteBusy, setDeleteBusy] = useState(false);

  const list = useInfiniteQuery({
    queryKey: usersListKey(search),
    queryFn: ({ pageParam, signal }) => fetchUsersPage(search, pageParam, signal),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
  const users = list.data?.pages.flatMap((page) => page.users) ?? [];
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = list;

  const loadMore = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  useCompanyEvent("user", (payload) => {
    if (payload.action === "delete") removeUserFromLists(queryClient, payload.userId);
    else upsertUserInLists(queryClient, payload.user);
  });

  async function confirmDelete() {
    if (!deleting) return;
    setDeleteBusy(true);
    try {
      await deleteUser(deleting.id);
      removeUserFromLists(queryClient, deleting.id);
      toast(t("users.deleted"), "success");
      setDeleting(null);
    } catch (error) {
      toastError(error);
    } finally {
      setDeleteBusy(false);
    }
  }

  return (
    <Box
      sx={{ p: { xs: 1.5, sm: 3 }, display: "flex", flexDirection: "column", gap: 2, flex: 1, minHeight: 0 }}
    >
      <Stack direction={{ xs: "column", sm: "row" }} spacing={1.5} sx={{ alignItems: { sm: "center" } }}>
        <Typography variant="h5" component="h1" sx={{ flex: 1, fontWeight: 600 }}>
          {t("users.title")}
        </Typography>
        <TextField
          size="small"
          type="search"
          placeholder={t("users.search")}
          value={searchText}
          onChange={(event) => setSearchText(event.target.value)}
          slotProps={{
            htmlInput: { "aria-label": t("users.search") },
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <SearchIcon fontSize="small" />
                </InputAdornment>
              ),
            },
          }}
        />
        <Button variant="contained" startIcon={<PersonAddIcon />} onClick={() => setEditing(null)}>
          {t("users.add")}
        </Button>
      </Stack>
      <Paper
        variant="outlined"
        sx={{ flex: 1, minHeight: 0, display: "flex", flexDirection: "column", overflow: "hidden" }}
      >
        <UsersTable
          users={users}
          loading={list.isPending || isFetchingNextPage}
          hasMore={Boolean(hasNextPage)}
          searching={search !== ""}
          onLoadMore={loadMore}
          onEdit={setEditing}
          onDelete={setDeleting}
        />
      </Paper>
      {editing !== undefined && <UserModal user={editing} onClose={() => setEditing(undefined)} />}
      <ConfirmationDialog
        open={deleting !== null}
        title={t("users.deleteTitle", { name: deleting?.name ?? "" })}
        message={t("users.deleteConfirm")}
        busy={deleteBusy}
        onConfirm={() => void confirmDelete()}
        onClose={() => setDeleting(null)}
      />
    </Box>
  );
}

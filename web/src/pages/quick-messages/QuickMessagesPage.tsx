import { LIMITS, type QuickMessageDTO } from "@atende/contracts";
import AddIcon from "@mui/icons-material/Add";
import SearchIcon from "@mui/icons-material/Search";
import { Box, Button, InputAdornment, Paper, Stack, TextField, Typography } from "@mui/material";
import { useInfiniteQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useState } from "react";
import { useTranslation } from "react-i18next";
import {
  deleteQuickMessage,
  fetchQuickMessagesPage,
  quickMessagesListKey,
  removeQuickMessageFromLists,
  upsertQuickMessageInLists,
} from "../../api/quickMessages";
import { useCompanyEvent, useSocketReady } from "../../api/SocketProvider";
import { toast, toastError } from "../../api/toast";
import { ConfirmationDialog } from "../../components/ConfirmationDialog";
import { useDebouncedValue } from "../../components/useDebouncedValue";
import { QuickMessageDialog } from "./QuickMessageDialog";
import { QuickMessagesTable } from "./QuickMessagesTable";

/** Which quick message the dialog edits: null creates a new one; undefined means the dialog is closed. */
type Editing = QuickMessageDTO | null | undefined;

/** /quick-messages: search, infinite scroll, add, edit and delete; other people's changes arrive live. */
export function QuickMessagesPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [searchText, setSearchText] = useState("");
  const search = useDebouncedValue(searchText.trim(), LIMITS.searchDebounceMs);
  const [editing, setEditing] = useState<Editing>(undefined);
  const [deleting, setDeleting] = useState<QuickMessageDTO | null>(null);
  const [deleteBusy, setDeleteBusy] = useState(false);

  const list = useInfiniteQuery({
    queryKey: quickMessagesListKey(search),
    queryFn: ({ pageParam, signal }) => fetchQuickMessagesPage(search, pageParam, signal),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
  const records = list.data?.pages.flatMap((page) => page.records) ?? [];
  const { hasNextPage, isFetchingNextPage, fetchNextPage, refetch } = list;

  const loadMore = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  useCompanyEvent("quickmessage", (payload) => {
    if (payload.action === "delete") removeQuickMessageFromLists(queryClient, payload.id);
    else upsertQuickMessageInLists(queryClient, payload.record);
  });
  // Changes made while the socket was away are not replayed: read the list again.
  useSocketReady(() => void refetch());

  async function confirmDelete() {
    if (!deleting) return;
    setDeleteBusy(true);
    try {
      await deleteQuickMessage(deleting.id);
      removeQuickMessageFromLists(queryClient, deleting.id);
      toast(t("quickMessages.deleted"), "success");
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
          {t("quickMessages.title")}
          {list.data && (
            <Typography component="span" color="text.secondary" sx={{ ml: 1, fontSize: "1rem" }}>
              ({list.data.pages[0]?.count ?? 0})
            </Typography>
          )}
        </Typography>
        <TextField
          size="small"
          placeholder={t("quickMessages.search")}
          value={searchText}
          onChange={(event) => setSearchText(event.target.value)}
          slotProps={{
            htmlInput: { "aria-label": t("quickMessages.search") },
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <SearchIcon fontSize="small" />
                </InputAdornment>
              ),
            },
          }}
        />
        <Button variant="contained" startIcon={<AddIcon />} onClick={() => setEditing(null)}>
          {t("quickMessages.add")}
        </Button>
      </Stack>
      <Paper
        variant="outlined"
        sx={{ flex: 1, minHeight: 0, display: "flex", flexDirection: "column", overflow: "hidden" }}
      >
        <QuickMessagesTable
          records={records}
          loading={list.isPending || isFetchingNextPage}
          hasMore={Boolean(hasNextPage)}
          searching={search !== ""}
          onLoadMore={loadMore}
          onEdit={setEditing}
          onDelete={setDeleting}
        />
      </Paper>
      {editing !== undefined && (
        <QuickMessageDialog quickMessage={editing} onClose={() => setEditing(undefined)} />
      )}
      <ConfirmationDialog
        open={deleting !== null}
        title={t("quickMessages.deleteTitle", { shortcode: deleting?.shortcode ?? "" })}
        message={t("quickMessages.deleteConfirm")}
        busy={deleteBusy}
        onConfirm={() => void confirmDelete()}
        onClose={() => setDeleting(null)}
      />
    </Box>
  );
}

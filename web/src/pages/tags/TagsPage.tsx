import { LIMITS, type TagDTO } from "@atende/contracts";
import AddIcon from "@mui/icons-material/Add";
import SearchIcon from "@mui/icons-material/Search";
import { Box, Button, InputAdornment, Paper, Stack, TextField, Typography } from "@mui/material";
import { useInfiniteQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useState } from "react";
import { useTranslation } from "react-i18next";
import { useCompanyEvent } from "../../api/SocketProvider";
import { deleteTag, fetchTagsPage, removeTagFromLists, tagsListKey, upsertTagInLists } from "../../api/tags";
import { toast, toastError } from "../../api/toast";
import { ConfirmationDialog } from "../../components/ConfirmationDialog";
import { useDebouncedValue } from "../../components/useDebouncedValue";
import { TagDialog } from "./TagDialog";
import { TagsTable } from "./TagsTable";

/** Which tag the dialog edits: null creates a new one; undefined means the dialog is closed. */
type Editing = TagDTO | null | undefined;

/** /tags: search, infinite scroll, add, edit and delete; other people's changes arrive live. */
export function TagsPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [searchText, setSearchText] = useState("");
  const search = useDebouncedValue(searchText.trim(), LIMITS.searchDebounceMs);
  const [editing, setEditing] = useState<Editing>(undefined);
  const [deleting, setDeleting] = useState<TagDTO | null>(null);
  const [deleteBusy, setDeleteBusy] = useState(false);

  const list = useInfiniteQuery({
    queryKey: tagsListKey(search),
    queryFn: ({ pageParam, signal }) => fetchTagsPage(search, pageParam, signal),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
  const tags = list.data?.pages.flatMap((page) => page.tags) ?? [];
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = list;

  const loadMore = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  useCompanyEvent("tag", (payload) => {
    if (payload.action === "delete") removeTagFromLists(queryClient, payload.tagId);
    else upsertTagInLists(queryClient, payload.tag);
  });

  async function confirmDelete() {
    if (!deleting) return;
    setDeleteBusy(true);
    try {
      await deleteTag(deleting.id);
      removeTagFromLists(queryClient, deleting.id);
      toast(t("tags.deleted"), "success");
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
          {t("tags.title")}
          {list.data && (
            <Typography component="span" color="text.secondary" sx={{ ml: 1, fontSize: "1rem" }}>
              ({list.data.pages[0]?.count ?? 0})
            </Typography>
          )}
        </Typography>
        <TextField
          size="small"
          type="search"
          placeholder={t("tags.search")}
          value={searchText}
          onChange={(event) => setSearchText(event.target.value)}
          slotProps={{
            htmlInput: { "aria-label": t("tags.search") },
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
          {t("tags.add")}
        </Button>
      </Stack>
      <Paper
        variant="outlined"
        sx={{ flex: 1, minHeight: 0, display: "flex", flexDirection: "column", overflow: "hidden" }}
      >
        <TagsTable
          tags={tags}
          loading={list.isPending || isFetchingNextPage}
          hasMore={Boolean(hasNextPage)}
          searching={search !== ""}
          onLoadMore={loadMore}
          onEdit={setEditing}
          onDelete={setDeleting}
        />
      </Paper>
      {editing !== undefined && <TagDialog tag={editing} onClose={() => setEditing(undefined)} />}
      <ConfirmationDialog
        open={deleting !== null}
        title={t("tags.deleteTitle", { name: deleting?.name ?? "" })}
        message={t("tags.deleteConfirm")}
        busy={deleteBusy}
        onConfirm={() => void confirmDelete()}
        onClose={() => setDeleting(null)}
      />
    </Box>
  );
}

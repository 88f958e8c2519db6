import type { PromptDTO } from "@atende/contracts";
import { Alert, Stack, Typography } from "@mui/material";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { usePromptsLive } from "../../api/botsLive";
import { deletePrompt, fetchPromptsPage, fetchTokenUsage, promptKeys, removePrompt } from "../../api/prompts";
import { ConfirmationDialog } from "../../components/ConfirmationDialog";
import { ListPage } from "../../components/ListPage";
import { useConfirmDelete } from "../../hooks/useConfirmDelete";
import { useSearchableList } from "../../hooks/useSearchableList";
import { PromptDialog } from "./PromptDialog";
import { PromptsTable } from "./PromptsTable";

type Editing = PromptDTO | null | undefined;

/**
 * /prompts: the AI prompts that answer for a queue. The warning about the provider's credit, the
 * tokens the company used, the table, add, edit and delete; other admins' changes arrive live.
 */
export function PromptsPage() {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<Editing>(undefined);
  const list = useSearchableList({
    queryKey: promptKeys.list,
    fetchPage: fetchPromptsPage,
    itemsOf: (page) => page.prompts,
  });
  const usage = useQuery({ queryKey: promptKeys.usage(), queryFn: ({ signal }) => fetchTokenUsage(signal) });
  const number = new Intl.NumberFormat(i18n.language);

  usePromptsLive();

  const removal = useConfirmDelete<PromptDTO>(async (item) => {
    await deletePrompt(item.id);
    removePrompt(queryClient, item.id);
  }, t("bots.prompts.deleted"));

  return (
    <ListPage
      title={t("bots.prompts.title")}
      count={list.count}
      searchLabel={t("bots.prompts.search")}
      searchText={list.searchText}
      onSearchChange={list.setSearchText}
      addLabel={t("bots.prompts.add")}
      onAdd={() => setEditing(null)}
      dialogs={
        <>
          {editing !== undefined && <PromptDialog prompt={editing} onClose={() => setEditing(undefined)} />}
          <ConfirmationDialog
            {...removal.dialog}
            title={t("bots.prompts.deleteTitle", { name: removal.deleting?.name ?? "" })}
            message={t("bots.prompts.deleteConfirm")}
          />
        </>
      }
    >
      <Stack spacing={1.5} sx={{ flex: 1, minHeight: 0 }}>
        <Alert severity="warning">{t("bots.prompts.warning")}</Alert>
        {usage.data && (
          <Typography variant="body2" color="text.secondary" data-testid="prompts-usage">
            {t("bots.prompts.usage", {
              month: number.format(usage.data.month.totalTokens),
              total: number.format(usage.data.total.totalTokens),
            })}
          </Typography>
        )}
        <PromptsTable list={list} onEdit={setEditing} onDelete={removal.ask} />
      </Stack>
    </ListPage>
  );
}

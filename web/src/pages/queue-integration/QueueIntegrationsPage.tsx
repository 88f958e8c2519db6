import type { QueueIntegrationDTO } from "@atende/contracts";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useQueueIntegrationsLive } from "../../api/botsLive";
import {
  deleteQueueIntegration,
  fetchQueueIntegrationsPage,
  queueIntegrationKeys,
  removeQueueIntegration,
} from "../../api/queueIntegrations";
import { ConfirmationDialog } from "../../components/ConfirmationDialog";
import { ListPage } from "../../components/ListPage";
import { useConfirmDelete } from "../../hooks/useConfirmDelete";
import { useSearchableList } from "../../hooks/useSearchableList";
import { QueueIntegrationDialog } from "./QueueIntegrationDialog";
import { QueueIntegrationsTable } from "./QueueIntegrationsTable";

/** Which integration the dialog edits: null adds one; undefined means the dialog is closed. */
type Editing = QueueIntegrationDTO | null | undefined;

/**
 * /queue-integration: the bots (Typebot, N8N, webhook, Dialogflow) queues and connections hand
 * conversations to. Title with the count of loaded items, the search lowercased and sent after
 * 500 ms, infinite scroll, add, edit and delete; other admins' changes arrive live.
 */
export function QueueIntegrationsPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<Editing>(undefined);
  const list = useSearchableList({
    queryKey: queueIntegrationKeys.list,
    fetchPage: fetchQueueIntegrationsPage,
    itemsOf: (page) => page.queueIntegrations,
  });

  useQueueIntegrationsLive();

  const removal = useConfirmDelete<QueueIntegrationDTO>(async (item) => {
    await deleteQueueIntegration(item.id);
    removeQueueIntegration(queryClient, item.id);
    // As the spec has it: after a delete the search is cleared and the list starts again at page 1.
    list.setSearchText("");
  }, t("bots.integrations.deleted"));

  return (
    <ListPage
      title={t("bots.integrations.title")}
      count={list.items.length}
      searchLabel={t("bots.integrations.search")}
      searchText={list.searchText}
      onSearchChange={(text) => list.setSearchText(text.toLowerCase())}
      addLabel={t("bots.integrations.add")}
      onAdd={() => setEditing(null)}
      dialogs={
        <>
          {editing !== undefined && (
            <QueueIntegrationDialog integration={editing} onClose={() => setEditing(undefined)} />
          )}
          <ConfirmationDialog
            {...removal.dialog}
            title={t("bots.integrations.deleteTitle", { name: removal.deleting?.name ?? "" })}
            message={t("bots.integrations.deleteConfirm")}
          />
        </>
      }
    >
      <QueueIntegrationsTable list={list} onEdit={setEditing} onDelete={removal.ask} />
    </ListPage>
  );
}

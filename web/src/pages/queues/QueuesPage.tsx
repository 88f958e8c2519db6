import type { QueueDetailDTO } from "@atende/contracts";
import AddIcon from "@mui/icons-material/Add";
import { Box, Button, Paper, Stack, Typography } from "@mui/material";
import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useState } from "react";
import { useTranslation } from "react-i18next";
import { deleteQueue, removeQueue, useQueueList } from "../../api/queues";
import { useQueuesLive } from "../../api/queuesLive";
import { ConfirmationDialog } from "../../components/ConfirmationDialog";
import { useConfirmDelete } from "../../hooks/useConfirmDelete";
import { QueueDialog } from "./QueueDialog/QueueDialog";
import { QueuesTable } from "./QueuesTable";

/** Which queue the dialog edits: null adds one; undefined means the dialog is closed. */
type Editing = QueueDetailDTO | null | undefined;

/** /queues: the company's queues and their chatbot menus; other admins' changes arrive live. */
export function QueuesPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const list = useQueueList();
  const queues = list.data ?? [];
  const [editing, setEditing] = useState<Editing>(undefined);
  const closeEditor = useCallback(() => setEditing(undefined), []);

  useQueuesLive();

  const removal = useConfirmDelete<QueueDetailDTO>(async (item) => {
    await deleteQueue(item.id);
    removeQueue(queryClient, item.id);
  }, t("queues.deleted"));

  return (
    <Box
      sx={{ p: { xs: 1.5, sm: 3 }, display: "flex", flexDirection: "column", gap: 2, flex: 1, minHeight: 0 }}
    >
      <Stack direction={{ xs: "column", sm: "row" }} spacing={1.5} sx={{ alignItems: { sm: "center" } }}>
        <Typography variant="h5" component="h1" sx={{ flex: 1, fontWeight: 600 }}>
          {t("queues.title")}
        </Typography>
        <Button variant="contained" startIcon={<AddIcon />} onClick={() => setEditing(null)}>
          {t("queues.add")}
        </Button>
      </Stack>
      <Paper
        variant="outlined"
        sx={{ flex: 1, minHeight: 0, display: "flex", flexDirection: "column", overflow: "hidden" }}
      >
        <QueuesTable
          queues={queues}
          loading={list.isPending}
          onAdd={() => setEditing(null)}
          onEdit={setEditing}
          onDelete={removal.ask}
        />
      </Paper>
      {editing !== undefined && <QueueDialog queue={editing} onClose={closeEditor} />}
      <ConfirmationDialog
        {...removal.dialog}
        title={t("queues.deleteTitle", { name: removal.deleting?.name ?? "" })}
        message={t("queues.deleteConfirm")}
      />
    </Box>
  );
}

import type { QueueOptionDTO } from "@atende/contracts";
import AddIcon from "@mui/icons-material/Add";
import AttachFileIcon from "@mui/icons-material/AttachFile";
import DeleteIcon from "@mui/icons-material/DeleteOutlineOutlined";
import EditIcon from "@mui/icons-material/EditOutlined";
import LinkOffIcon from "@mui/icons-material/LinkOff";
import SubdirectoryArrowRightIcon from "@mui/icons-material/SubdirectoryArrowRight";
import {
  Alert,
  Box,
  Button,
  Chip,
  IconButton,
  Paper,
  Skeleton,
  Stack,
  Tooltip,
  Typography,
} from "@mui/material";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import {
  deleteQueueOption,
  deleteQueueOptionMedia,
  fetchQueueOptions,
  queueKeys,
  uploadQueueOptionMedia,
} from "../../../api/queues";
import { toast, toastError } from "../../../api/toast";
import { ConfirmationDialog } from "../../../components/ConfirmationDialog";
import { OptionDialog, type OptionEditing } from "./OptionDialog";

interface OptionActions {
  addChild(parent: QueueOptionDTO): void;
  edit(option: QueueOptionDTO): void;
  remove(option: QueueOptionDTO): void;
  attach(option: QueueOptionDTO): void;
  detach(option: QueueOptionDTO): void;
  busyId: number | null;
}

/** One option with its sub-menu below it, indented along a line in the queue's colour. */
function OptionNode({
  option,
  path,
  color,
  actions,
}: {
  option: QueueOptionDTO;
  /** The numbers typed to reach it ("1 › 2"). */
  path: string;
  color: string;
  actions: OptionActions;
}) {
  const { t } = useTranslation();
  const busy = actions.busyId === option.id;
  return (
    <Box
      role="treeitem"
      aria-label={`${path} ${option.title}`}
      aria-expanded={option.children.length > 0 || undefined}
    >
      <Paper
        variant="outlined"
        sx={{
          p: 1.25,
          display: "flex",
          gap: 1.5,
          alignItems: "flex-start",
          borderLeft: 4,
          borderLeftColor: color,
        }}
      >
        <Chip
          label={path}
          size="small"
          color="primary"
          variant="outlined"
          sx={{ fontWeight: 600, mt: 0.25 }}
        />
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Typography sx={{ fontWeight: 600 }} noWrap title={option.title}>
            {option.title}
          </Typography>
          {option.message && (
            <Typography
              variant="body2"
              color="text.secondary"
              sx={{
                whiteSpace: "pre-wrap",
                display: "-webkit-box",
                WebkitLineClamp: 2,
                WebkitBoxOrient: "vertical",
                overflow: "hidden",
              }}
            >
              {option.message}
            </Typography>
          )}
          {option.mediaName && (
            <Chip
              icon={<AttachFileIcon />}
              label={option.mediaName}
              size="small"
              sx={{ mt: 0.5, maxWidth: "100%" }}
            />
          )}
        </Box>
        <Stack direction="row" sx={{ flexShrink: 0 }}>
          <Tooltip title={t("queues.options.addChild")}>
            <IconButton
              size="small"
              aria-label={`${t("queues.options.addChild")}: ${option.title}`}
              onClick={() => actions.addChild(option)}
            >
              <SubdirectoryArrowRightIcon fontSize="small" />
            </IconButton>
          </Tooltip>
          <Tooltip title={t("queues.options.edit")}>
            <IconButton
              size="small"
              aria-label={`${t("queues.options.edit")}: ${option.title}`}
              onClick={() => actions.edit(option)}
            >
              <EditIcon fontSize="small" />
            </IconButton>
          </Tooltip>
          <Tooltip title={t("queues.options.attach")}>
            <span>
              <IconButton
                size="small"
                aria-label={`${t("queues.options.attach")}: ${option.title}`}
                onClick={() => actions.attach(option)}
                loading={busy}
              >
                <AttachFileIcon fontSize="small" />
              </IconButton>
            </span>
          </Tooltip>
          {option.mediaPath && (
            <Tooltip title={t("queues.options.removeMedia")}>
              <IconButton
                size="small"
                aria-label={`${t("queues.options.removeMedia")}: ${option.title}`}
                onClick={() => actions.detach(option)}
                disabled={busy}
              >
                <LinkOffIcon fontSize="small" />
              </IconButton>
            </Tooltip>
          )}
          <Tooltip title={t("queues.options.delete")}>
            <IconButton
              size="small"
              aria-label={`${t("queues.options.delete")}: ${option.title}`}
              onClick={() => actions.remove(option)}
            >
              <DeleteIcon fontSize="small" />
            </IconButton>
          </Tooltip>
        </Stack>
      </Paper>
      {option.children.length > 0 && (
        <Stack
          role="group"
          spacing={1}
          sx={{
            mt: 1,
            ml: { xs: 1.5, sm: 3 },
            pl: { xs: 1, sm: 1.5 },
            borderLeft: 2,
            borderColor: "divider",
          }}
        >
          {option.children.map((child) => (
            <OptionNode
              key={child.id}
              option={child}
              path={`${path} › ${child.option}`}
              color={color}
              actions={actions}
            />
          ))}
        </Stack>
      )}
    </Box>
  );
}

/** The queue's chatbot menu as a tree: add, edit, delete and attach, each saved at once. */
export function OptionsEditor({ queueId, color }: { queueId: number; color: string }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const key = queueKeys.options(queueId);
  const tree = useQuery({ queryKey: key, queryFn: ({ signal }) => fetchQueueOptions(queueId, signal) });
  const [editing, setEditing] = useState<OptionEditing | null>(null);
  const [deleting, setDeleting] = useState<QueueOptionDTO | null>(null);
  const [deleteBusy, setDeleteBusy] = useState(false);
  const [busyId, setBusyId] = useState<number | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const attachTo = useRef<QueueOptionDTO | null>(null);
  const reload = () => queryClient.invalidateQueries({ queryKey: key });

  async function withOption(option: QueueOptionDTO, work: () => Promise<unknown>, done: string) {
    setBusyId(option.id);
    try {
      await work();
      await reload();
      toast(done, "success");
    } catch (error) {
      toastError(error);
    } finally {
      setBusyId(null);
    }
  }

  const actions: OptionActions = {
    addChild: (parent) => setEditing({ mode: "add", queueId, parent }),
    edit: (option) => setEditing({ mode: "edit", option }),
    remove: setDeleting,
    attach: (option) => {
      attachTo.current = option;
      fileInput.current?.click();
    },
    detach: (option) =>
      void withOption(option, () => deleteQueueOptionMedia(option.id), t("queues.dialog.mediaRemoved")),
    busyId,
  };

  async function confirmDelete() {
    if (!deleting) return;
    setDeleteBusy(true);
    try {
      await deleteQueueOption(deleting.id);
      await reload();
      toast(t("queues.options.deleted"), "success");
      setDeleting(null);
    } catch (error) {
      toastError(error);
    } finally {
      setDeleteBusy(false);
    }
  }

  const options = tree.data ?? [];
  return (
    <Stack spacing={1.5}>
      <Stack direction={{ xs: "column", sm: "row" }} spacing={1} sx={{ alignItems: { sm: "center" } }}>
        <Typography variant="body2" color="text.secondary" sx={{ flex: 1 }}>
          {t("queues.options.hint")}
        </Typography>
        <Button
          variant="outlined"
          startIcon={<AddIcon />}
          onClick={() => setEditing({ mode: "add", queueId, parent: null })}
        >
          {t("queues.options.add")}
        </Button>
      </Stack>
      {tree.isPending && <Skeleton variant="rounded" height={56} />}
      {tree.isError && <Alert severity="error">{t("queues.options.loadError")}</Alert>}
      {tree.isSuccess && options.length === 0 && (
        <Typography color="text.secondary" sx={{ py: 3, textAlign: "center" }}>
          {t("queues.options.empty")}
        </Typography>
      )}
      {options.length > 0 && (
        <Stack role="tree" aria-label={t("queues.dialog.tabs.options")} spacing={1}>
          {options.map((option) => (
            <OptionNode
              key={option.id}
              option={option}
              path={String(option.option)}
              color={color}
              actions={actions}
            />
          ))}
        </Stack>
      )}
      <input
        ref={fileInput}
        type="file"
        hidden
        aria-hidden
        tabIndex={-1}
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = "";
          const option = attachTo.current;
          if (file && option)
            void withOption(
              option,
              () => uploadQueueOptionMedia(option.id, file),
              t("queues.dialog.mediaAttached"),
            );
        }}
      />
      {editing && (
        <OptionDialog
          editing={editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            void reload();
          }}
        />
      )}
      <ConfirmationDialog
        open={deleting !== null}
        title={t("queues.options.deleteTitle", { title: deleting?.title ?? "" })}
        message={t("queues.options.deleteConfirm")}
        busy={deleteBusy}
        onConfirm={() => void confirmDelete()}
        onClose={() => setDeleting(null)}
      />
    </Stack>
  );
}

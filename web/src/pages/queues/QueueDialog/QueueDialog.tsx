import type { QueueDetailDTO, QueueSaveInput } from "@atende/contracts";
import { Alert, Box, Button, Stack, Tab, Tabs } from "@mui/material";
import { useQueryClient } from "@tanstack/react-query";
import { useId, useRef, useState } from "react";
import { FormProvider, useForm, useWatch, type FieldErrors } from "react-hook-form";
import { useTranslation } from "react-i18next";
import {
  deleteQueueMedia,
  saveQueue,
  upsertQueue,
  uploadQueueMedia,
  useQueueList,
} from "../../../api/queues";
import { settingValue, useSettings } from "../../../api/settings";
import { toast, toastError } from "../../../api/toast";
import { applyServerErrors } from "../../../components/formFields";
import { DataTab } from "./DataTab";
import { HoursTab } from "./HoursTab";
import { MediaField } from "./MediaField";
import { OptionsEditor } from "./OptionsEditor";
import { SlaTab } from "./SlaTab";
import {
  formPathOf,
  initialValues,
  queueResolver,
  tabOf,
  toPayload,
  type QueueFieldPath,
  type QueueFormValues,
  type TabKey,
} from "./queueForm";
import { FormDialog } from "../../../components/FormDialog";

interface QueueDialogProps {
  /** The queue to edit; null to add one. */
  queue: QueueDetailDTO | null;
  onClose(): void;
}

/** Errors that belong to one field: shown under it rather than as a toast. */
const CODE_FIELDS: Partial<Record<string, QueueFieldPath>> = {
  ERR_QUEUE_COLOR_ALREADY_EXISTS: "color",
  ERR_QUEUE_NAME_ALREADY_EXISTS: "name",
  ERR_NO_QUEUE_INTEGRATION_FOUND: "integrationId",
  ERR_NO_PROMPT_FOUND: "promptId",
};

/**
 * Adds or edits a queue. Tabs: its data (with the greeting's attachment), its service hours (only
 * when the company's scheduleType is "queue"), its service levels, and its chatbot menu, which
 * saves option by option.
 */
export function QueueDialog({ queue, onClose }: QueueDialogProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const baseId = useId();
  const settings = useSettings();
  const queues = useQueueList();
  const showHours = settingValue(settings.data, "scheduleType") === "queue";
  /** The queue as saved: a new queue becomes an edited one once created. */
  const [saved, setSaved] = useState<QueueDetailDTO | null>(queue);
  const [tab, setTab] = useState<TabKey>("data");
  const [pendingFile, setPendingFile] = useState<File | null>(null);
  const [mediaBusy, setMediaBusy] = useState(false);
  const keepOpen = useRef(false);
  const form = useForm<QueueFormValues, unknown, QueueSaveInput>({
    defaultValues: initialValues(
      queue,
      (queues.data ?? []).map((q) => q.color),
    ),
    resolver: queueResolver,
  });
  const {
    control,
    handleSubmit,
    setError,
    reset,
    formState: { isSubmitting },
  } = form;
  const color = useWatch({ control, name: "color" });
  const tabs: TabKey[] = showHours ? ["data", "hours", "sla", "options"] : ["data", "sla", "options"];
  const shownTab = tabs.includes(tab) ? tab : "data";

  function showFirstError(errors: FieldErrors<QueueFormValues>) {
    keepOpen.current = false;
    const first = tabs.find((key) => Object.keys(errors).some((path) => tabOf(path) === key));
    if (first) setTab(first);
  }

  function showServerErrors(error: unknown) {
    const at = applyServerErrors(error, setError, { codes: CODE_FIELDS, fieldOf: formPathOf });
    if (at) setTab(tabOf(at));
  }

  async function submit(values: QueueSaveInput) {
    try {
      let result = await saveQueue(saved?.id ?? null, toPayload(values));
      if (pendingFile) {
        result = await uploadQueueMedia(result.id, pendingFile).catch((error: unknown) => {
          toastError(error);
          return result;
        });
        setPendingFile(null);
      }
      upsertQueue(queryClient, result);
      toast(t("queues.saved"), "success");
      if (keepOpen.current) {
        setSaved(result);
        reset(initialValues(result));
        setTab("options");
      } else {
        onClose();
      }
    } catch (error) {
      showServerErrors(error);
    } finally {
      keepOpen.current = false;
    }
  }

  async function mediaCall(call: () => Promise<QueueDetailDTO>, done: string) {
    setMediaBusy(true);
    try {
      const result = await call();
      setSaved(result);
      upsertQueue(queryClient, result);
      toast(done, "success");
    } catch (error) {
      toastError(error);
    } finally {
      setMediaBusy(false);
    }
  }

  function pickMedia(file: File) {
    if (!saved) setPendingFile(file);
    else void mediaCall(() => uploadQueueMedia(saved.id, file), t("queues.dialog.mediaAttached"));
  }

  function removeMedia() {
    if (!saved) setPendingFile(null);
    else void mediaCall(() => deleteQueueMedia(saved.id), t("queues.dialog.mediaRemoved"));
  }

  const panel = (key: TabKey) => ({
    role: "tabpanel",
    id: `${baseId}-panel-${key}`,
    "aria-labelledby": `${baseId}-tab-${key}`,
    hidden: shownTab !== key,
  });
  const submitForm = handleSubmit(submit, showFirstError);

  return (
    <FormProvider {...form}>
      <FormDialog
        title={t(saved ? "queues.dialog.editTitle" : "queues.dialog.addTitle")}
        maxWidth="md"
        onClose={onClose}
        onSubmit={submitForm}
        submitting={isSubmitting}
        header={
          <Tabs
            value={shownTab}
            onChange={(_, value: TabKey) => setTab(value)}
            variant="scrollable"
            sx={{ px: 2, borderBottom: 1, borderColor: "divider" }}
          >
            {tabs.map((key) => (
              <Tab
                key={key}
                value={key}
                label={t(`queues.dialog.tabs.${key}`)}
                id={`${baseId}-tab-${key}`}
                aria-controls={`${baseId}-panel-${key}`}
              />
            ))}
          </Tabs>
        }
        dividers={false}
        contentSx={{ minHeight: 380 }}
      >
        <Box {...panel("data")} sx={{ pt: 1 }}>
          <DataTab>
            <MediaField
              label={t("queues.dialog.media")}
              mediaPath={saved?.mediaPath ?? null}
              mediaName={saved?.mediaName ?? null}
              pendingName={pendingFile?.name ?? null}
              texts={{
                none: t("queues.dialog.noMedia"),
                attach: t("queues.dialog.attach"),
                replace: t("queues.dialog.replace"),
                remove: t("queues.dialog.removeMedia"),
                pending: pendingFile
                  ? t("queues.dialog.pendingMedia", { name: pendingFile.name })
                  : undefined,
              }}
              busy={mediaBusy}
              onPick={pickMedia}
              onRemove={removeMedia}
            />
          </DataTab>
        </Box>
        {showHours && (
          <Box {...panel("hours")} sx={{ pt: 1 }}>
            <HoursTab />
          </Box>
        )}
        <Box {...panel("sla")} sx={{ pt: 1 }}>
          <SlaTab />
        </Box>
        <Box {...panel("options")} sx={{ pt: 1 }}>
          {saved ? (
            <OptionsEditor queueId={saved.id} color={color || saved.color} />
          ) : (
            <Stack spacing={2} sx={{ alignItems: "flex-start" }}>
              <Alert severity="info" sx={{ alignSelf: "stretch" }}>
                {t("queues.dialog.optionsNeedSave")}
              </Alert>
              <Button
                variant="contained"
                loading={isSubmitting}
                onClick={() => {
                  keepOpen.current = true;
                  void submitForm();
                }}
              >
                {t("queues.dialog.saveAndBuild")}
              </Button>
            </Stack>
          )}
        </Box>
      </FormDialog>
    </FormProvider>
  );
}

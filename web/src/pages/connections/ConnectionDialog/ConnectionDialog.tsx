import type { WhatsappDetailDTO, WhatsappSaveInput } from "@atende/contracts";
import { Box, CircularProgress, Dialog, DialogContent, DialogTitle, Tab, Tabs } from "@mui/material";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useId, useState } from "react";
import { FormProvider, useForm, useWatch, type FieldErrors } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { toast } from "../../../api/toast";
import { fetchQueues } from "../../../api/users";
import { fetchWhatsapp, saveWhatsapp, upsertWhatsapp, whatsappKeys } from "../../../api/whatsapps";
import { applyServerErrors } from "../../../components/formFields";
import { CloudTab } from "./CloudTab";
import {
  connectionResolver,
  formPathOf,
  initialValues,
  tabOf,
  toPayload,
  type ConnectionFieldPath,
  type ConnectionFormValues,
  type TabKey,
} from "./connectionForm";
import { GeneralTab } from "./GeneralTab";
import { SchedulesTab } from "./SchedulesTab";
import { ServiceTab } from "./ServiceTab";
import { queueKeys } from "../../../api/queues";
import { FormDialog } from "../../../components/FormDialog";

interface ConnectionDialogProps {
  /** The connection to edit; null to add one. */
  whatsappId: number | null;
  onClose(): void;
}

/** Adds or edits a connection; editing loads the admin's full view of it first. */
export function ConnectionDialog({ whatsappId, onClose }: ConnectionDialogProps) {
  const { t } = useTranslation();
  const titleId = useId();
  const detail = useQuery({
    queryKey: whatsappKeys.detail(whatsappId),
    queryFn: ({ signal }) => fetchWhatsapp(whatsappId ?? 0, signal),
    enabled: whatsappId !== null,
    staleTime: 0,
    gcTime: 0,
  });
  const title = t(whatsappId === null ? "connectionModal.addTitle" : "connectionModal.editTitle");
  // The failure was toasted (query cache): nothing to edit, so the dialog goes away. A later refetch
  // that fails (after a reconnection) leaves the connection being edited as it is.
  const failed = detail.isError && !detail.data;
  useEffect(() => {
    if (failed) onClose();
  }, [failed, onClose]);

  if (whatsappId !== null && !detail.data) {
    return (
      <Dialog open onClose={onClose} aria-labelledby={titleId} maxWidth="md" fullWidth>
        <DialogTitle id={titleId}>{title}</DialogTitle>
        <DialogContent sx={{ display: "grid", placeItems: "center", minHeight: 240 }}>
          <CircularProgress aria-label={t("common.loading")} />
        </DialogContent>
      </Dialog>
    );
  }
  return <ConnectionForm whatsapp={detail.data ?? null} title={title} onClose={onClose} />;
}

interface ConnectionFormProps {
  whatsapp: WhatsappDetailDTO | null;
  title: string;
  onClose(): void;
}

const TAB_ORDER: TabKey[] = ["general", "service", "schedules", "cloud"];

/** Errors that belong to one field: shown under it rather than as a toast. */
const CODE_FIELDS: Partial<Record<string, ConnectionFieldPath>> = {
  ERR_WAPP_GREETING_REQUIRED: "greetingMessage",
  ERR_WAPP_NAME_TAKEN: "name",
  ERR_NO_QUEUE_INTEGRATION_FOUND: "integrationId",
  ERR_NO_PROMPT_FOUND: "promptId",
};

function ConnectionForm({ whatsapp, title, onClose }: ConnectionFormProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const baseId = useId();
  const [tab, setTab] = useState<TabKey>("general");
  const queues = useQuery({ queryKey: queueKeys.all, queryFn: ({ signal }) => fetchQueues(signal) });
  const queueList = queues.data ?? [];
  const form = useForm<ConnectionFormValues, unknown, WhatsappSaveInput>({
    defaultValues: initialValues(whatsapp),
    resolver: connectionResolver,
  });
  const {
    control,
    handleSubmit,
    setError,
    formState: { isSubmitting },
  } = form;
  const provider = useWatch({ control, name: "provider" });
  const tabs = TAB_ORDER.filter((key) => key !== "cloud" || provider === "cloud");
  const shownTab = tabs.includes(tab) ? tab : "general";

  function showFirstError(errors: FieldErrors<ConnectionFormValues>) {
    const first = TAB_ORDER.find((key) => Object.keys(errors).some((path) => tabOf(path) === key));
    if (first) setTab(first);
  }

  function showServerErrors(error: unknown) {
    const at = applyServerErrors(error, setError, { codes: CODE_FIELDS, fieldOf: formPathOf });
    if (at) setTab(tabOf(at));
  }

  async function submit(values: WhatsappSaveInput) {
    try {
      const {
        token: _token,
        cloud: _cloud,
        ...saved
      } = await saveWhatsapp(whatsapp?.id ?? null, toPayload(values));
      upsertWhatsapp(queryClient, saved);
      toast(t("connectionModal.saved"), "success");
      onClose();
    } catch (error) {
      showServerErrors(error);
    }
  }

  const panel = (key: TabKey) => ({
    role: "tabpanel",
    id: `${baseId}-panel-${key}`,
    "aria-labelledby": `${baseId}-tab-${key}`,
    hidden: shownTab !== key,
  });

  return (
    <FormProvider {...form}>
      <FormDialog
        title={title}
        maxWidth="md"
        onClose={onClose}
        onSubmit={handleSubmit(submit, showFirstError)}
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
                label={t(`connectionModal.tabs.${key}`)}
                id={`${baseId}-tab-${key}`}
                aria-controls={`${baseId}-panel-${key}`}
              />
            ))}
          </Tabs>
        }
        dividers={false}
        contentSx={{ minHeight: 360 }}
      >
        <Box {...panel("general")} sx={{ pt: 1 }}>
          <GeneralTab queues={queueList} whatsapp={whatsapp} />
        </Box>
        <Box {...panel("service")} sx={{ pt: 1 }}>
          <ServiceTab queues={queueList} />
        </Box>
        <Box {...panel("schedules")} sx={{ pt: 1 }}>
          <SchedulesTab />
        </Box>
        {provider === "cloud" && (
          <Box {...panel("cloud")} sx={{ pt: 1 }}>
            <CloudTab whatsapp={whatsapp} />
          </Box>
        )}
      </FormDialog>
    </FormProvider>
  );
}

import type { WebhookDTO, WebhookWithSecretDTO } from "@atende/contracts";
import { Alert, Box, Button, Chip, Paper, Stack, Typography } from "@mui/material";
import AddIcon from "@mui/icons-material/Add";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { toast, toastError } from "../../../api/toast";
import {
  deleteWebhook,
  fetchWebhooks,
  rotateWebhookSecret,
  sendWebhookTest,
  webhookKeys,
} from "../../../api/webhooks";
import { ConfirmationDialog } from "../../../components/ConfirmationDialog";
import { DeliveryLog } from "./DeliveryLog";
import { WebhookDialog } from "./WebhookDialog";

/** Settings → Webhooks (admins): the company's subscriptions, their secret once, test, log. */
export function WebhooksTab() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const list = useQuery({ queryKey: webhookKeys.list(), queryFn: ({ signal }) => fetchWebhooks(signal) });
  const [editing, setEditing] = useState<WebhookDTO | "new" | null>(null);
  const [secret, setSecret] = useState<WebhookWithSecretDTO | null>(null);
  const [removing, setRemoving] = useState<WebhookDTO | null>(null);
  const [open, setOpen] = useState<number | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: webhookKeys.all });
  const act = (work: Promise<unknown>, done: string) =>
    void work
      .then(() => {
        toast(done, "success");
        return refresh();
      })
      .catch(toastError);

  return (
    <Box>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {t("api.webhooks.intro")}
      </Typography>
      <Button variant="contained" startIcon={<AddIcon />} onClick={() => setEditing("new")} sx={{ mb: 2 }}>
        {t("api.webhooks.add")}
      </Button>
      {secret && (
        <Alert severity="warning" onClose={() => setSecret(null)} sx={{ mb: 2 }}>
          {t("api.webhooks.secretOnce")} <code data-testid="webhook-secret">{secret.secret}</code>
        </Alert>
      )}
      {list.data?.length === 0 && <Typography color="text.secondary">{t("api.webhooks.empty")}</Typography>}
      <Stack spacing={1.5}>
        {list.data?.map((w) => (
          <Paper key={w.id} variant="outlined" sx={{ p: 1.5 }} aria-label={w.url}>
            <Stack direction={{ xs: "column", sm: "row" }} spacing={1} sx={{ alignItems: { sm: "center" } }}>
              <Typography sx={{ flex: 1, overflowWrap: "anywhere", fontFamily: "monospace", fontSize: 14 }}>
                {w.url}
              </Typography>
              <Chip
                size="small"
                color={w.active ? "success" : "default"}
                label={
                  w.active
                    ? t("api.webhooks.active")
                    : w.disabledReason === "failing"
                      ? t("api.webhooks.disabledFailing")
                      : t("api.webhooks.inactive")
                }
              />
            </Stack>
            <Box sx={{ display: "flex", flexWrap: "wrap", gap: 0.5, my: 1 }}>
              {w.events.map((e) => (
                <Chip key={e} size="small" variant="outlined" label={e} />
              ))}
            </Box>
            <Stack direction="row" sx={{ flexWrap: "wrap", gap: 1 }}>
              <Button size="small" onClick={() => act(sendWebhookTest(w.id), t("api.webhooks.testQueued"))}>
                {t("api.webhooks.sendTest")}
              </Button>
              <Button size="small" onClick={() => setOpen(open === w.id ? null : w.id)}>
                {open === w.id ? t("api.webhooks.hideLog") : t("api.webhooks.showLog")}
              </Button>
              <Button size="small" onClick={() => setEditing(w)}>
                {t("api.webhooks.edit")}
              </Button>
              <Button
                size="small"
                onClick={() =>
                  void rotateWebhookSecret(w.id)
                    .then((s) => {
                      setSecret(s);
                      toast(t("api.webhooks.secretRotated"), "success");
                    })
                    .catch(toastError)
                }
              >
                {t("api.webhooks.rotateSecret")}
              </Button>
              <Button size="small" color="error" onClick={() => setRemoving(w)}>
                {t("api.webhooks.remove")}
              </Button>
            </Stack>
            {open === w.id && <DeliveryLog webhookId={w.id} />}
          </Paper>
        ))}
      </Stack>
      {editing && (
        <WebhookDialog
          webhook={editing === "new" ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={(created) => {
            setEditing(null);
            if (created) setSecret(created);
            toast(t("api.webhooks.saved"), "success");
            void refresh();
          }}
        />
      )}
      <ConfirmationDialog
        open={removing !== null}
        title={t("api.webhooks.remove")}
        message={t("api.webhooks.deleteConfirm")}
        onClose={() => setRemoving(null)}
        onConfirm={() => {
          if (removing) act(deleteWebhook(removing.id), t("api.webhooks.deleted"));
          setRemoving(null);
        }}
      />
    </Box>
  );
}

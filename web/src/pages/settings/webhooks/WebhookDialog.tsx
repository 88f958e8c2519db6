import {
  WEBHOOK_EVENTS,
  type WebhookDTO,
  type WebhookEventName,
  type WebhookWithSecretDTO,
} from "@atende/contracts";
import { Checkbox, FormControlLabel, FormGroup, FormLabel, Stack, Switch, TextField } from "@mui/material";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiError } from "../../../api/http";
import { toastError } from "../../../api/toast";
import { createWebhook, updateWebhook } from "../../../api/webhooks";
import { FormDialog } from "../../../components/FormDialog";

const URL_CODES = new Set(["ERR_WEBHOOK_URL_INVALID", "ERR_WEBHOOK_URL_FORBIDDEN"]);

/** Add or edit a subscription: the URL, the events, on or off. A new one answers its secret (shown once). */
export function WebhookDialog({
  webhook,
  onClose,
  onSaved,
}: {
  webhook: WebhookDTO | null;
  onClose(): void;
  onSaved(created: WebhookWithSecretDTO | null): void;
}) {
  const { t } = useTranslation();
  const [url, setUrl] = useState(webhook?.url ?? "");
  const [events, setEvents] = useState<WebhookEventName[]>(
    webhook?.events ?? ["ticket.created", "message.created"],
  );
  const [active, setActive] = useState(webhook?.active ?? true);
  const [urlError, setUrlError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    if (!url.trim()) return setUrlError(t("api.page.required"));
    if (events.length === 0) return;
    setSaving(true);
    try {
      const input = { url: url.trim(), events, active };
      if (webhook) {
        await updateWebhook(webhook.id, input);
        onSaved(null);
      } else onSaved(await createWebhook(input));
    } catch (err) {
      if (err instanceof ApiError && err.code && URL_CODES.has(err.code))
        setUrlError(t(`errors.${err.code}`));
      else toastError(err);
    } finally {
      setSaving(false);
    }
  }

  const toggle = (name: WebhookEventName) =>
    setEvents((list) => (list.includes(name) ? list.filter((n) => n !== name) : [...list, name]));
  return (
    <FormDialog
      title={webhook ? t("api.webhooks.edit") : t("api.webhooks.add")}
      onClose={onClose}
      onSubmit={(e) => void submit(e)}
      submitting={saving}
      maxWidth="sm"
    >
      <Stack spacing={2} sx={{ pt: 1 }}>
        <TextField
          label={t("api.webhooks.url")}
          value={url}
          onChange={(e) => {
            setUrl(e.target.value);
            setUrlError(null);
          }}
          placeholder="https://erp.example.com/atende/webhook"
          required
          autoFocus
          error={Boolean(urlError)}
          helperText={urlError ?? undefined}
        />
        <FormGroup>
          <FormLabel component="legend">{t("api.webhooks.events")}</FormLabel>
          {WEBHOOK_EVENTS.map((name) => (
            <FormControlLabel
              key={name}
              control={
                <Checkbox checked={events.includes(name)} onChange={() => toggle(name)} size="small" />
              }
              label={`${t(`api.webhooks.eventNames.${name}`)} (${name})`}
            />
          ))}
        </FormGroup>
        <FormControlLabel
          control={<Switch checked={active} onChange={(e) => setActive(e.target.checked)} />}
          label={t("api.webhooks.active")}
        />
      </Stack>
    </FormDialog>
  );
}

import {
  DIALOGFLOW_LANGUAGES,
  QUEUE_INTEGRATION_TYPES,
  type QueueIntegrationBody,
  type QueueIntegrationDTO,
} from "@atende/contracts";
import { Button, Grid, MenuItem, Stack, TextField } from "@mui/material";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Controller, useForm, useWatch } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { ApiError } from "../../api/http";
import { saveQueueIntegration, testDialogflow, upsertQueueIntegration } from "../../api/queueIntegrations";
import { toast, toastError } from "../../api/toast";
import { FormDialog } from "../../components/FormDialog";
import { applyServerErrors, fieldErrorText, textFieldRegister } from "../../components/formFields";
import { IntegrationLogo } from "./IntegrationLogo";
import {
  TYPE_FIELDS,
  initialIntegrationValues,
  integrationFieldOf,
  integrationResolver,
  type IntegrationField,
  type IntegrationFormValues,
} from "./integrationForm";

interface QueueIntegrationDialogProps {
  /** The integration to edit; null to add one. */
  integration: QueueIntegrationDTO | null;
  onClose(): void;
}

/** The spec's pause before a save goes out (the button shows progress meanwhile). */
const SAVE_DELAY_MS = 400;
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Required marks as the spec shows them (the server requires a name for every type). */
function required(type: IntegrationFormValues["type"], field: IntegrationField): boolean {
  if (field === "language") return type === "dialogflow";
  if (field === "name" || field === "urlN8N") return type !== "dialogflow";
  return field === "typebotSlug";
}

const MULTILINE: Partial<Record<IntegrationField, number>> = {
  jsonContent: 5,
  typebotUnknownMessage: 2,
  typebotRestartMessage: 2,
};
const WIDE = new Set<IntegrationField>([
  "jsonContent",
  "urlN8N",
  "typebotUnknownMessage",
  "typebotRestartMessage",
]);
const NUMBERS = new Set<IntegrationField>(["typebotExpires", "typebotDelayMessage"]);

/**
 * Adds or edits a bot integration: the type selector (new ones start as Typebot) and each type's
 * fields; Dialogflow has a Test button. Secrets are never shown: left blank, the saved ones stay.
 */
export function QueueIntegrationDialog({ integration, onClose }: QueueIntegrationDialogProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [testing, setTesting] = useState(false);
  const {
    register,
    control,
    handleSubmit,
    setError,
    getValues,
    formState: { errors, isSubmitting },
  } = useForm<IntegrationFormValues, unknown, QueueIntegrationBody>({
    defaultValues: initialIntegrationValues(integration),
    resolver: integrationResolver,
  });
  const type = useWatch({ control, name: "type" });

  async function submit(values: QueueIntegrationBody) {
    await wait(SAVE_DELAY_MS);
    try {
      const saved = await saveQueueIntegration(integration?.id ?? null, values);
      upsertQueueIntegration(queryClient, saved);
      toast(t(integration ? "bots.integrations.edited" : "bots.integrations.created"), "success");
      onClose();
    } catch (error) {
      applyServerErrors(error, setError, {
        codes: {
          ERR_QUEUE_INTEGRATION_NAME_TAKEN: "name",
          ERR_INTEGRATION_URL_FORBIDDEN: "urlN8N",
          ERR_DIALOGFLOW_JSON_REQUIRED: "jsonContent",
          ERR_DIALOGFLOW_JSON_INVALID: "jsonContent",
        },
        fieldOf: integrationFieldOf,
      });
    }
  }

  async function test() {
    const { projectName, jsonContent, language } = getValues();
    setTesting(true);
    try {
      const answer = await testDialogflow({ projectName, jsonContent, language, id: integration?.id });
      toast(t("bots.integrations.tested", { reply: answer.fulfillmentText || answer.intent }), "success");
    } catch (error) {
      // Google's own reason, after ours: what the admin needs to fix the account or the project.
      const detail =
        error instanceof ApiError ? (error.body as { detail?: unknown } | null)?.detail : undefined;
      if (typeof detail === "string" && detail)
        toast(`${t(`errors.${String(error instanceof ApiError ? error.code : "")}`)} ${detail}`, "error");
      else toastError(error);
    } finally {
      setTesting(false);
    }
  }

  function secretHelp(field: "jsonContent" | "authToken" | "signingSecret"): string | undefined {
    if (field === "jsonContent")
      return integration?.jsonContentHint
        ? t("bots.integrations.dialog.jsonContentKeep", { hint: integration.jsonContentHint })
        : undefined;
    const hint = field === "authToken" ? integration?.authTokenHint : integration?.signingSecretHint;
    if (hint) return t("bots.integrations.dialog.keepSecret", { hint });
    return field === "authToken"
      ? t("bots.integrations.dialog.authTokenHelp")
      : t("bots.integrations.dialog.signingSecretHelp");
  }

  function field(name: IntegrationField) {
    if (name === "language")
      return (
        <Controller
          control={control}
          name="language"
          render={({ field: { ref, ...f } }) => (
            <TextField
              {...f}
              inputRef={ref}
              select
              fullWidth
              id="integration-language"
              label={t("bots.integrations.dialog.language")}
              required
              error={Boolean(errors.language)}
              helperText={fieldErrorText(errors.language)}
            >
              {DIALOGFLOW_LANGUAGES.map((lang) => (
                <MenuItem key={lang} value={lang}>
                  {t(`bots.integrations.languages.${lang}`)}
                </MenuItem>
              ))}
            </TextField>
          )}
        />
      );
    const secret = name === "jsonContent" || name === "authToken" || name === "signingSecret";
    const label =
      name === "urlN8N" && type === "typebot"
        ? t("bots.integrations.dialog.urlTypebot")
        : t(`bots.integrations.dialog.${name}`);
    return (
      <TextField
        {...textFieldRegister(register(name))}
        id={`integration-${name}`}
        label={label}
        fullWidth
        required={required(type, name)}
        autoComplete="off"
        type={NUMBERS.has(name) ? "number" : secret && name !== "jsonContent" ? "password" : "text"}
        multiline={MULTILINE[name] !== undefined}
        minRows={MULTILINE[name]}
        error={Boolean(errors[name])}
        helperText={fieldErrorText(errors[name]) ?? (secret ? secretHelp(name) : undefined)}
        slotProps={NUMBERS.has(name) ? { htmlInput: { min: 0, step: 1 } } : undefined}
      />
    );
  }

  return (
    <FormDialog
      title={t(integration ? "bots.integrations.dialog.editTitle" : "bots.integrations.dialog.addTitle")}
      maxWidth="md"
      onClose={onClose}
      onSubmit={handleSubmit(submit)}
      submitting={isSubmitting}
      extraActions={
        type === "dialogflow" ? (
          <Button variant="outlined" loading={testing} onClick={() => void test()}>
            {t("bots.integrations.dialog.test")}
          </Button>
        ) : undefined
      }
    >
      <Stack spacing={2.5} sx={{ pt: 1 }}>
        <Stack direction="row" spacing={2} sx={{ alignItems: "center" }}>
          <IntegrationLogo type={type} size={40} />
          <Controller
            control={control}
            name="type"
            render={({ field: { ref, ...f } }) => (
              <TextField
                {...f}
                inputRef={ref}
                select
                id="integration-type"
                label={t("bots.integrations.dialog.type")}
                required
                autoFocus={!integration}
                sx={{ minWidth: 220 }}
                error={Boolean(errors.type)}
                helperText={fieldErrorText(errors.type)}
              >
                {QUEUE_INTEGRATION_TYPES.map((value) => (
                  <MenuItem key={value} value={value}>
                    {t(`bots.integrations.types.${value}`)}
                  </MenuItem>
                ))}
              </TextField>
            )}
          />
        </Stack>
        <Grid container spacing={2}>
          {TYPE_FIELDS[type].map((name) => (
            <Grid key={`${type}-${name}`} size={{ xs: 12, sm: WIDE.has(name) ? 12 : 6 }}>
              {field(name)}
            </Grid>
          ))}
        </Grid>
      </Stack>
    </FormDialog>
  );
}

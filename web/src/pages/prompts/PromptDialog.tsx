import {
  PROMPT_LIMITS,
  PROMPT_TEXT_VOICE,
  PROMPT_VOICES,
  type PromptBody,
  type PromptDTO,
} from "@atende/contracts";
import { Grid, MenuItem, TextField } from "@mui/material";
import { useQueryClient } from "@tanstack/react-query";
import { Controller, useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { savePrompt, upsertPrompt } from "../../api/prompts";
import { useQueueList } from "../../api/queues";
import { toast } from "../../api/toast";
import { FormDialog } from "../../components/FormDialog";
import { applyServerErrors, fieldErrorText, textFieldRegister } from "../../components/formFields";
import { PasswordField } from "../../components/PasswordField";
import {
  initialPromptValues,
  promptFieldOf,
  promptResolver,
  type PromptField,
  type PromptFormValues,
} from "./promptForm";

interface PromptDialogProps {
  /** The prompt to edit; null to add one. */
  prompt: PromptDTO | null;
  onClose(): void;
}

const SAVE_DELAY_MS = 400;
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Adds or edits an AI prompt. Without a queue the save stops with 'Informe o setor' and nothing is
 * sent. The keys are never shown: their last four characters say one is saved, blank keeps it.
 */
export function PromptDialog({ prompt, onClose }: PromptDialogProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const queues = useQueueList();
  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<PromptFormValues, unknown, PromptBody>({
    defaultValues: initialPromptValues(prompt),
    resolver: promptResolver,
  });

  async function submit(values: PromptBody) {
    if (values.queueId === null || values.queueId === undefined) {
      const message = t("errors.ERR_PROMPT_QUEUE_REQUIRED");
      toast(message, "error");
      setError("queueId", { type: "server", message });
      return;
    }
    await wait(SAVE_DELAY_MS);
    try {
      const saved = await savePrompt(prompt?.id ?? null, values);
      upsertPrompt(queryClient, saved);
      toast(t("bots.prompts.saved"), "success");
      onClose();
    } catch (error) {
      applyServerErrors(error, setError, {
        codes: {
          ERR_PROMPT_NAME_TAKEN: "name",
          ERR_PROMPT_QUEUE_REQUIRED: "queueId",
          ERR_NO_QUEUE_FOUND: "queueId",
          ERR_PROMPT_API_KEY_REQUIRED: "apiKey",
        },
        fieldOf: promptFieldOf,
      });
    }
  }

  const text = (name: PromptField, extra: { required?: boolean; number?: boolean; help?: string } = {}) => (
    <TextField
      {...textFieldRegister(register(name))}
      id={`prompt-${name}`}
      label={t(`bots.prompts.dialog.${name}`)}
      fullWidth
      required={extra.required}
      autoComplete="off"
      type={extra.number ? "number" : "text"}
      error={Boolean(errors[name])}
      helperText={fieldErrorText(errors[name]) ?? extra.help}
      slotProps={
        extra.number
          ? {
              htmlInput:
                name === "temperature"
                  ? { min: 0, max: PROMPT_LIMITS.temperature, step: 0.1 }
                  : { min: 1, step: 1 },
            }
          : undefined
      }
    />
  );

  const secret = (name: "apiKey" | "voiceKey", hint: string | null | undefined, required = false) => (
    <PasswordField
      {...textFieldRegister(register(name))}
      id={`prompt-${name}`}
      label={t(`bots.prompts.dialog.${name}`)}
      fullWidth
      required={required}
      autoComplete="new-password"
      error={Boolean(errors[name])}
      helperText={
        fieldErrorText(errors[name]) ?? (hint ? t("bots.prompts.dialog.keepSecret", { hint }) : undefined)
      }
    />
  );

  return (
    <FormDialog
      title={t(prompt ? "bots.prompts.dialog.editTitle" : "bots.prompts.dialog.addTitle")}
      maxWidth="md"
      onClose={onClose}
      onSubmit={handleSubmit(submit)}
      submitting={isSubmitting}
    >
      <Grid container spacing={2} sx={{ pt: 1 }}>
        <Grid size={12}>
          <TextField
            {...textFieldRegister(register("name"))}
            id="prompt-name"
            label={t("bots.prompts.dialog.name")}
            fullWidth
            required
            autoFocus
            autoComplete="off"
            error={Boolean(errors.name)}
            helperText={fieldErrorText(errors.name)}
          />
        </Grid>
        <Grid size={12}>
          <TextField
            {...textFieldRegister(register("prompt"))}
            id="prompt-prompt"
            label={t("bots.prompts.dialog.prompt")}
            fullWidth
            required
            multiline
            minRows={5}
            maxRows={14}
            error={Boolean(errors.prompt)}
            helperText={fieldErrorText(errors.prompt) ?? t("bots.prompts.dialog.promptHelp")}
          />
        </Grid>
        <Grid size={{ xs: 12, sm: 4 }}>
          <Controller
            control={control}
            name="voice"
            render={({ field: { ref, ...f } }) => (
              <TextField
                {...f}
                inputRef={ref}
                select
                fullWidth
                id="prompt-voice"
                label={t("bots.prompts.dialog.voice")}
              >
                <MenuItem value={PROMPT_TEXT_VOICE}>{t("bots.prompts.dialog.voiceText")}</MenuItem>
                {PROMPT_VOICES.map((voice) => (
                  <MenuItem key={voice} value={voice}>
                    {voice}
                  </MenuItem>
                ))}
              </TextField>
            )}
          />
        </Grid>
        <Grid size={{ xs: 12, sm: 4 }}>{secret("voiceKey", prompt?.voiceKeyHint)}</Grid>
        <Grid size={{ xs: 12, sm: 4 }}>{text("voiceRegion")}</Grid>
        <Grid size={{ xs: 12, sm: 6 }}>{text("maxTokens", { required: true, number: true })}</Grid>
        <Grid size={{ xs: 12, sm: 6 }}>{text("temperature", { required: true, number: true })}</Grid>
        <Grid size={12}>{secret("apiKey", prompt?.apiKeyHint, !prompt)}</Grid>
        <Grid size={{ xs: 12, sm: 6 }}>
          <Controller
            control={control}
            name="queueId"
            render={({ field: { ref, ...f } }) => (
              <TextField
                {...f}
                inputRef={ref}
                value={f.value ?? ""}
                onChange={(event) =>
                  f.onChange(event.target.value === "" ? null : Number(event.target.value))
                }
                select
                fullWidth
                required
                id="prompt-queueId"
                label={t("bots.prompts.dialog.queue")}
                error={Boolean(errors.queueId)}
                helperText={fieldErrorText(errors.queueId)}
              >
                {(queues.data ?? []).map((queue) => (
                  <MenuItem key={queue.id} value={queue.id}>
                    {queue.name}
                  </MenuItem>
                ))}
              </TextField>
            )}
          />
        </Grid>
        <Grid size={{ xs: 12, sm: 6 }}>{text("maxMessages", { required: true, number: true })}</Grid>
      </Grid>
    </FormDialog>
  );
}

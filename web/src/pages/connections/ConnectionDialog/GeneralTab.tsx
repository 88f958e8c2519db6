import { PROVIDERS, type QueueDTO, type WhatsappDetailDTO, type WhatsappSaveInput } from "@atende/contracts";
import { FormControlLabel, MenuItem, Stack, Switch, TextField } from "@mui/material";
import { Controller, useFormContext } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { textFieldRegister } from "../../../components/formFields";
import { errorText, type ConnectionFormValues } from "./connectionForm";
import { ConnectionTokenField } from "./ConnectionTokenField";
import { QueuesSelect } from "./QueuesSelect";

const MESSAGE_FIELDS = [
  "greetingMessage",
  "complationMessage",
  "outOfHoursMessage",
  "ratingMessage",
] as const;

export function GeneralTab({ queues, whatsapp }: { queues: QueueDTO[]; whatsapp: WhatsappDetailDTO | null }) {
  const { t } = useTranslation();
  const {
    register,
    control,
    formState: { errors },
  } = useFormContext<ConnectionFormValues, unknown, WhatsappSaveInput>();

  return (
    <Stack spacing={2}>
      <Stack direction={{ xs: "column", sm: "row" }} spacing={2} sx={{ alignItems: { sm: "center" } }}>
        <TextField
          {...textFieldRegister(register("name"))}
          id="connection-name"
          label={t("connectionModal.name")}
          autoFocus
          required
          error={Boolean(errors.name)}
          helperText={errorText(errors.name)}
          sx={{ flex: 1 }}
        />
        <Controller
          control={control}
          name="isDefault"
          render={({ field }) => (
            <FormControlLabel
              label={t("connectionModal.isDefault")}
              control={
                <Switch
                  checked={field.value}
                  onChange={(event) => field.onChange(event.target.checked)}
                  onBlur={field.onBlur}
                />
              }
            />
          )}
        />
      </Stack>
      <Controller
        control={control}
        name="provider"
        render={({ field: { ref, ...field } }) => (
          <TextField
            {...field}
            inputRef={ref}
            select
            id="connection-provider"
            label={t("connectionModal.provider")}
            error={Boolean(errors.provider)}
            helperText={errorText(errors.provider)}
          >
            {PROVIDERS.map((provider) => (
              <MenuItem key={provider} value={provider}>
                {t(`connectionModal.providers.${provider}`)}
              </MenuItem>
            ))}
          </TextField>
        )}
      />
      <Controller
        control={control}
        name="queueIds"
        render={({ field }) => (
          <QueuesSelect
            queues={queues}
            value={field.value}
            onChange={field.onChange}
            onBlur={field.onBlur}
            inputRef={field.ref}
            error={errorText(errors.queueIds)}
          />
        )}
      />
      {MESSAGE_FIELDS.map((name) => (
        <TextField
          key={name}
          {...textFieldRegister(register(name))}
          id={`connection-${name}`}
          label={t(`connectionModal.${name}`)}
          multiline
          minRows={2}
          maxRows={8}
          error={Boolean(errors[name])}
          helperText={errorText(errors[name])}
        />
      ))}
      <ConnectionTokenField whatsapp={whatsapp} />
    </Stack>
  );
}

import { PROVIDERS, type QueueDTO, type WhatsappSaveInput } from "@atende/contracts";
import AutorenewIcon from "@mui/icons-material/Autorenew";
import {
  FormControlLabel,
  IconButton,
  InputAdornment,
  MenuItem,
  Stack,
  Switch,
  TextField,
  Tooltip,
} from "@mui/material";
import { Controller, useFormContext, useWatch } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { textFieldRegister } from "../../../components/formFields";
import { errorText, type ConnectionFormValues } from "./connectionForm";
import { CopyButton } from "./CopyButton";
import { QueuesSelect } from "./QueuesSelect";

const TOKEN_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** 32 random letters and digits. */
export function randomToken(length = 32): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  return Array.from(bytes, (byte) => TOKEN_CHARS[byte % TOKEN_CHARS.length]).join("");
}

const MESSAGE_FIELDS = [
  "greetingMessage",
  "complationMessage",
  "outOfHoursMessage",
  "ratingMessage",
] as const;

export function GeneralTab({ queues }: { queues: QueueDTO[] }) {
  const { t } = useTranslation();
  const {
    register,
    control,
    setValue,
    formState: { errors },
  } = useFormContext<ConnectionFormValues, unknown, WhatsappSaveInput>();
  const token = useWatch({ control, name: "token" });

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
      <TextField
        {...textFieldRegister(register("token"))}
        id="connection-token"
        label={t("connectionModal.token")}
        autoComplete="off"
        error={Boolean(errors.token)}
        helperText={errorText(errors.token) ?? t("connectionModal.tokenHint")}
        slotProps={{
          input: {
            endAdornment: (
              <InputAdornment position="end">
                <Tooltip title={t("connectionModal.generateToken")} disableInteractive>
                  <IconButton
                    aria-label={t("connectionModal.generateToken")}
                    onClick={() =>
                      setValue("token", randomToken(), { shouldDirty: true, shouldValidate: true })
                    }
                  >
                    <AutorenewIcon fontSize="small" />
                  </IconButton>
                </Tooltip>
                <CopyButton text={token} label={t("connectionModal.copyToken")} />
              </InputAdornment>
            ),
          },
        }}
      />
    </Stack>
  );
}

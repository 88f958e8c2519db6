import type { WhatsappDetailDTO, WhatsappSaveInput } from "@atende/contracts";
import { InputAdornment, Stack, TextField } from "@mui/material";
import { useFormContext } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { textFieldRegister } from "../../../components/formFields";
import { PasswordField } from "../../../components/PasswordField";
import { errorText, type ConnectionFormValues } from "./connectionForm";
import { CopyButton } from "./CopyButton";

/** The official Cloud API settings: ids, the secrets (write-only) and the webhook URL for Meta. */
export function CloudTab({ whatsapp }: { whatsapp: WhatsappDetailDTO | null }) {
  const { t } = useTranslation();
  const {
    register,
    formState: { errors },
  } = useFormContext<ConnectionFormValues, unknown, WhatsappSaveInput>();
  const cloudErrors = errors.cloud;
  const webhookUrl = whatsapp?.cloud.webhookUrl ?? "";

  return (
    <Stack spacing={2}>
      {(["phoneNumberId", "wabaId", "verifyToken"] as const).map((name) => (
        <TextField
          key={name}
          {...textFieldRegister(register(`cloud.${name}`))}
          id={`connection-cloud-${name}`}
          label={t(`connectionModal.${name}`)}
          autoComplete="off"
          error={Boolean(cloudErrors?.[name])}
          helperText={errorText(cloudErrors?.[name])}
        />
      ))}
      {(["accessToken", "appSecret"] as const).map((name) => {
        const isSet = name === "accessToken" ? whatsapp?.cloud.accessTokenSet : whatsapp?.cloud.appSecretSet;
        return (
          <PasswordField
            key={name}
            {...textFieldRegister(register(`cloud.${name}`))}
            id={`connection-cloud-${name}`}
            label={t(`connectionModal.${name}`)}
            autoComplete="new-password"
            placeholder={isSet ? t("connectionModal.secretSet") : undefined}
            error={Boolean(cloudErrors?.[name])}
            helperText={
              errorText(cloudErrors?.[name]) ?? (isSet ? t("connectionModal.secretHint") : undefined)
            }
            slotProps={{ inputLabel: { shrink: true } }}
          />
        );
      })}
      <TextField
        id="connection-cloud-webhookUrl"
        label={t("connectionModal.webhookUrl")}
        value={webhookUrl}
        placeholder={webhookUrl ? undefined : t("connectionModal.webhookAfterSave")}
        helperText={t("connectionModal.webhookHint")}
        slotProps={{
          inputLabel: { shrink: true },
          input: {
            readOnly: true,
            endAdornment: (
              <InputAdornment position="end">
                <CopyButton text={webhookUrl} label={t("connectionModal.copyWebhook")} />
              </InputAdornment>
            ),
          },
        }}
      />
    </Stack>
  );
}

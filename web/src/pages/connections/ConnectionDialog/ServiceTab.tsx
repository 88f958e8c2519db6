import type { QueueDTO, WhatsappSaveInput } from "@atende/contracts";
import { MenuItem, Stack, TextField } from "@mui/material";
import { Controller, useFormContext } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { BotLinksFields } from "../../../components/BotLinksFields";
import { textFieldRegister } from "../../../components/formFields";
import { errorText, type ConnectionFormValues } from "./connectionForm";

type NumberField = "expiresTicket" | "timeUseBotQueues" | "maxUseBotQueues" | "timeToTransfer";

/** An empty number box means 0; anything else is left for the schema to judge. */
const asNumber = (value: unknown) => (value === "" || value === null ? 0 : Number(value));

/** Ticket expiry, the bot's repeat rules and the automatic transfer. */
export function ServiceTab({ queues }: { queues: QueueDTO[] }) {
  const { t } = useTranslation();
  const {
    register,
    control,
    formState: { errors },
  } = useFormContext<ConnectionFormValues, unknown, WhatsappSaveInput>();

  function numberField(name: NumberField, helper?: string) {
    return (
      <TextField
        {...textFieldRegister(register(name, { setValueAs: asNumber }))}
        id={`connection-${name}`}
        label={t(`connectionModal.${name}`)}
        type="number"
        error={Boolean(errors[name])}
        helperText={errorText(errors[name]) ?? helper}
        slotProps={{ htmlInput: { min: 0, step: 1 } }}
        sx={{ flex: 1 }}
      />
    );
  }

  return (
    <Stack spacing={2}>
      {numberField("expiresTicket", t("connectionModal.expiresTicketHint"))}
      <TextField
        {...textFieldRegister(register("expiresInactiveMessage"))}
        id="connection-expiresInactiveMessage"
        label={t("connectionModal.expiresInactiveMessage")}
        multiline
        minRows={2}
        maxRows={8}
        error={Boolean(errors.expiresInactiveMessage)}
        helperText={errorText(errors.expiresInactiveMessage)}
      />
      <Stack direction={{ xs: "column", sm: "row" }} spacing={2}>
        {numberField("timeUseBotQueues")}
        {numberField("maxUseBotQueues")}
      </Stack>
      <Stack direction={{ xs: "column", sm: "row" }} spacing={2}>
        <Controller
          control={control}
          name="transferQueueId"
          render={({ field: { ref, ...field } }) => (
            <TextField
              {...field}
              inputRef={ref}
              value={field.value ?? ""}
              onChange={(event) =>
                field.onChange(event.target.value === "" ? null : Number(event.target.value))
              }
              select
              id="connection-transferQueueId"
              label={t("connectionModal.transferQueueId")}
              error={Boolean(errors.transferQueueId)}
              helperText={errorText(errors.transferQueueId)}
              sx={{ flex: 1 }}
              slotProps={{
                inputLabel: { shrink: true },
                select: {
                  displayEmpty: true,
                  renderValue: (value) =>
                    value === ""
                      ? t("connectionModal.noTransfer")
                      : (queues.find((q) => q.id === value)?.name ?? `#${String(value)}`),
                },
              }}
            >
              <MenuItem value="">{t("connectionModal.noTransfer")}</MenuItem>
              {queues.map((queue) => (
                <MenuItem key={queue.id} value={queue.id}>
                  {queue.name}
                </MenuItem>
              ))}
            </TextField>
          )}
        />
        {numberField("timeToTransfer")}
      </Stack>
      <BotLinksFields idPrefix="connection" />
    </Stack>
  );
}

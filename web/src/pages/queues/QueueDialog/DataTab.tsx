import type { QueueSaveInput } from "@atende/contracts";
import { Stack, TextField } from "@mui/material";
import type { ReactNode } from "react";
import { Controller, useFormContext } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { fieldErrorText, textFieldRegister } from "../../../components/formFields";
import { BotLinksFields } from "../../../components/BotLinksFields";
import { ColorPicker } from "../../../components/ColorPicker";
import type { QueueFormValues } from "./queueForm";

/** Name, colour, menu order and greeting; the attachment comes below, from the dialog. */
export function DataTab({ children }: { children?: ReactNode }) {
  const { t } = useTranslation();
  const {
    register,
    control,
    formState: { errors },
  } = useFormContext<QueueFormValues, unknown, QueueSaveInput>();
  return (
    <Stack spacing={2.5}>
      <Stack direction={{ xs: "column", sm: "row" }} spacing={2}>
        <TextField
          {...textFieldRegister(register("name"))}
          id="queue-name"
          label={t("queues.dialog.name")}
          autoFocus
          required
          autoComplete="off"
          error={Boolean(errors.name)}
          helperText={fieldErrorText(errors.name)}
          sx={{ flex: 2 }}
        />
        <TextField
          {...textFieldRegister(register("orderQueue"))}
          id="queue-order"
          label={t("queues.dialog.orderQueue")}
          type="number"
          error={Boolean(errors.orderQueue)}
          helperText={fieldErrorText(errors.orderQueue) ?? t("queues.dialog.orderHelp")}
          slotProps={{ htmlInput: { min: 0, max: 9999, step: 1 } }}
          sx={{ flex: 1 }}
        />
      </Stack>
      <Controller
        control={control}
        name="color"
        render={({ field }) => (
          <ColorPicker value={field.value} onChange={field.onChange} error={fieldErrorText(errors.color)} />
        )}
      />
      <TextField
        {...textFieldRegister(register("greetingMessage"))}
        id="queue-greeting"
        label={t("queues.dialog.greetingMessage")}
        multiline
        minRows={3}
        maxRows={8}
        error={Boolean(errors.greetingMessage)}
        helperText={fieldErrorText(errors.greetingMessage) ?? t("queues.dialog.greetingHelp")}
      />
      <BotLinksFields idPrefix="queue" />
      {children}
    </Stack>
  );
}

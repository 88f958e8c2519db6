import { SLA_LIMITS, type QueueSaveInput } from "@atende/contracts";
import {
  FormControl,
  FormControlLabel,
  FormHelperText,
  FormLabel,
  Stack,
  Switch,
  TextField,
  Typography,
} from "@mui/material";
import { useId, useState, type Ref } from "react";
import { Controller, useFormContext } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { fieldErrorText, textFieldRegister } from "../../../components/formFields";
import { slaDuration } from "../../../components/SlaChip";
import type { QueueFormValues } from "./queueForm";

interface Parts {
  hours: string;
  minutes: string;
}

/** A target's total minutes ("" for none) as the two boxes show it: 90 → 1 h 30 min. */
function split(total: string): Parts {
  if (!/^\d+$/.test(total)) return { hours: "", minutes: total === "" ? "" : total };
  const value = Number(total);
  const hours = Math.floor(value / 60);
  const minutes = value % 60;
  return { hours: hours ? String(hours) : "", minutes: minutes || !hours ? String(minutes) : "" };
}

/**
 * The two boxes as the form's total: both empty is no target; hours and minutes add up (minutes may
 * pass 59: "90 minutes" is a way to say it); anything but whole numbers is left for the schema to
 * refuse.
 */
function join({ hours, minutes }: Parts): string {
  const h = hours.trim();
  const m = minutes.trim();
  if (h === "" && m === "") return "";
  if ((h !== "" && !/^\d+$/.test(h)) || (m !== "" && !/^\d+$/.test(m))) return "invalid";
  return String(Number(h || 0) * 60 + Number(m || 0));
}

interface DurationFieldProps {
  legend: string;
  help: string;
  value: string;
  onChange(value: string): void;
  onBlur(): void;
  inputRef: Ref<HTMLInputElement>;
  error: string | undefined;
}

/** A target typed as hours and minutes (or minutes alone), with its total below once it is one. */
function DurationField({ legend, help, value, onChange, onBlur, inputRef, error }: DurationFieldProps) {
  const { t } = useTranslation();
  const id = useId();
  const [parts, setParts] = useState(() => split(value));
  // A reset of the form (the queue saved, another loaded) puts its value back in the boxes.
  const [shown, setShown] = useState(value);
  if (value !== shown) {
    setShown(value);
    setParts(split(value));
  }

  function change(next: Parts) {
    const total = join(next);
    setParts(next);
    setShown(total);
    onChange(total);
  }

  const total =
    /^\d+$/.test(value) && Number(value) > 0 ? slaDuration(Number(value) * 60_000, t, "down") : null;
  const helpId = `${id}-help`;
  const box = { type: "number", min: 0, step: 1, inputMode: "numeric", "aria-describedby": helpId } as const;
  return (
    <FormControl component="fieldset" error={Boolean(error)} sx={{ minWidth: 0 }}>
      <FormLabel component="legend" sx={{ mb: 1 }}>
        {legend}
      </FormLabel>
      <Stack direction="row" spacing={1.5} sx={{ alignItems: "center" }}>
        <TextField
          id={`${id}-hours`}
          label={t("sla.dialog.hours")}
          size="small"
          value={parts.hours}
          onChange={(event) => change({ ...parts, hours: event.target.value })}
          onBlur={onBlur}
          inputRef={inputRef}
          error={Boolean(error)}
          slotProps={{ htmlInput: box }}
          sx={{ width: 110 }}
        />
        <TextField
          id={`${id}-minutes`}
          label={t("sla.dialog.minutes")}
          size="small"
          value={parts.minutes}
          onChange={(event) => change({ ...parts, minutes: event.target.value })}
          onBlur={onBlur}
          error={Boolean(error)}
          slotProps={{ htmlInput: box }}
          sx={{ width: 110 }}
        />
        {total && (
          <Typography variant="body2" color="text.secondary" aria-live="polite">
            {t("sla.dialog.total", { time: total })}
          </Typography>
        )}
      </Stack>
      <FormHelperText id={helpId}>{error ?? help}</FormHelperText>
    </FormControl>
  );
}

/**
 * The queue's service levels: time to the first reply and to resolution (hours and minutes, empty
 * for no target), the share of a target after which its tickets show "warning", and whether the
 * resolution clock stops while the conversation waits on the customer.
 */
export function SlaTab() {
  const { t } = useTranslation();
  const {
    register,
    control,
    formState: { errors },
  } = useFormContext<QueueFormValues, unknown, QueueSaveInput>();
  return (
    <Stack spacing={3}>
      <Typography variant="body2" color="text.secondary">
        {t("sla.dialog.hint")}
      </Typography>
      {(["slaFirstResponseMinutes", "slaResolutionMinutes"] as const).map((name) => {
        const which = name === "slaFirstResponseMinutes" ? "firstResponse" : "resolution";
        return (
          <Controller
            key={name}
            control={control}
            name={name}
            render={({ field }) => (
              <DurationField
                legend={t(`sla.dialog.${which}`)}
                help={t(`sla.dialog.${which}Help`)}
                value={field.value}
                onChange={field.onChange}
                onBlur={field.onBlur}
                inputRef={field.ref}
                error={fieldErrorText(errors[name])}
              />
            )}
          />
        );
      })}
      <TextField
        {...textFieldRegister(register("slaWarningPercent"))}
        id="queue-sla-warning"
        label={t("sla.dialog.warningPercent")}
        type="number"
        size="small"
        error={Boolean(errors.slaWarningPercent)}
        helperText={fieldErrorText(errors.slaWarningPercent) ?? t("sla.dialog.warningHelp")}
        slotProps={{
          htmlInput: { min: SLA_LIMITS.warningPercent.min, max: SLA_LIMITS.warningPercent.max, step: 1 },
        }}
        sx={{ maxWidth: 360 }}
      />
      <Controller
        control={control}
        name="slaPauseOnCustomer"
        render={({ field }) => (
          <FormControl error={Boolean(errors.slaPauseOnCustomer)}>
            <FormControlLabel
              control={
                <Switch
                  checked={field.value}
                  onChange={(event) => field.onChange(event.target.checked)}
                  onBlur={field.onBlur}
                  slotProps={{ input: { ref: field.ref, "aria-describedby": "queue-sla-pause-help" } }}
                />
              }
              label={t("sla.dialog.pauseOnCustomer")}
            />
            <FormHelperText id="queue-sla-pause-help" sx={{ mt: 0 }}>
              {fieldErrorText(errors.slaPauseOnCustomer) ?? t("sla.dialog.pauseHelp")}
            </FormHelperText>
          </FormControl>
        )}
      />
    </Stack>
  );
}

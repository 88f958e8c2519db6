import type { PlanFlag } from "@atende/contracts";
import { MenuItem, Stack, TextField } from "@mui/material";
import { useQuery } from "@tanstack/react-query";
import { Controller, useFormContext, type FieldErrors } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { fetchAllPrompts, promptKeys } from "../api/prompts";
import { fetchAllQueueIntegrations, queueIntegrationKeys } from "../api/queueIntegrations";
import { useSessionUser } from "../auth/AuthContext";
import { planAllows } from "../auth/plan";
import { fieldErrorText } from "./formFields";

/** The two fields by which a connection or a queue hands its conversations to a bot or an AI. */
interface BotLinks {
  integrationId: number | null;
  promptId: number | null;
}

interface Option {
  id: number;
  name: string;
}

/**
 * The integration and prompt selectors of the connection and queue dialogs (spec fields
 * `integrationId`, `promptId`): the company's own, "none" to clear. Each shows on a plan with its
 * feature, or while a link kept from a better plan is stored (it may be kept or cleared).
 */
export function BotLinksFields({ idPrefix }: { idPrefix: string }) {
  const { t } = useTranslation();
  const user = useSessionUser();
  const { control, formState } = useFormContext<BotLinks>();
  const errors = formState.errors as FieldErrors<BotLinks>;
  const useIntegrations = planAllows(user, "useIntegrations");
  const useOpenAi = planAllows(user, "useOpenAi");
  const integrations = useQuery({
    queryKey: queueIntegrationKeys.options(),
    queryFn: ({ signal }) => fetchAllQueueIntegrations(signal),
    enabled: useIntegrations,
  });
  const prompts = useQuery({
    queryKey: promptKeys.options(),
    queryFn: ({ signal }) => fetchAllPrompts(signal),
    enabled: useOpenAi,
  });

  function select(name: keyof BotLinks, flag: PlanFlag, options: Option[] | undefined) {
    const allowed = planAllows(user, flag);
    return (
      <Controller
        control={control}
        name={name}
        render={({ field: { ref, ...field } }) => {
          if (!allowed && field.value === null) return <></>;
          const listed = options ?? [];
          // A stored link not in the list (plan downgraded, list still loading) still shows.
          const all =
            field.value !== null && !listed.some((o) => o.id === field.value)
              ? [...listed, { id: field.value, name: `#${field.value}` }]
              : listed;
          const label = t(name === "integrationId" ? "bots.links.integration" : "bots.links.prompt");
          return (
            <TextField
              {...field}
              inputRef={ref}
              value={field.value ?? ""}
              onChange={(event) =>
                field.onChange(event.target.value === "" ? null : Number(event.target.value))
              }
              select
              fullWidth
              id={`${idPrefix}-${name}`}
              label={label}
              error={Boolean(errors[name])}
              helperText={
                fieldErrorText(errors[name]) ??
                t(name === "integrationId" ? "bots.links.integrationHelp" : "bots.links.promptHelp")
              }
              slotProps={{
                inputLabel: { shrink: true },
                select: {
                  displayEmpty: true,
                  renderValue: (value) =>
                    value === "" ? t("bots.links.none") : (all.find((o) => o.id === value)?.name ?? ""),
                },
              }}
            >
              <MenuItem value="">{t("bots.links.none")}</MenuItem>
              {all.map((option) => (
                <MenuItem key={option.id} value={option.id}>
                  {option.name}
                </MenuItem>
              ))}
            </TextField>
          );
        }}
      />
    );
  }

  return (
    <Stack direction={{ xs: "column", sm: "row" }} spacing={2}>
      {select("integrationId", "useIntegrations", integrations.data)}
      {select("promptId", "useOpenAi", prompts.data)}
    </Stack>
  );
}

import type { CampaignVariable } from "@atende/contracts";
import { Box, Chip, Stack, Tab, Tabs, TextField, Typography } from "@mui/material";
import { useId, useRef, useState } from "react";
import { useFormContext, useWatch } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { fieldErrorText } from "../../components/formFields";
import type { CampaignFormValues } from "./campaignForm";

type VariantField = `message${1 | 2 | 3 | 4 | 5}` | `confirmationMessage${1 | 2 | 3 | 4 | 5}`;

interface VariantTabsProps {
  /** The five fields, in order. */
  fields: readonly VariantField[];
  /** "message" or "confirmationMessage": the fields' label. */
  labelKey: "message" | "confirmationMessage";
  /** The custom variables of /campaigns-config, offered beside {nome} {numero} {email}. */
  variables: CampaignVariable[];
  readOnly: boolean;
}

const BUILT_IN = ["nome", "numero", "email"] as const;

/**
 * Five variants as tabs, a filled one marked; under the editor, the placeholders as chips that
 * insert themselves where the cursor is (or at the end).
 */
export function VariantTabs({ fields, labelKey, variables, readOnly }: VariantTabsProps) {
  const { t } = useTranslation();
  const baseId = useId();
  const {
    register,
    setValue,
    getValues,
    control,
    formState: { errors },
  } = useFormContext<CampaignFormValues>();
  const values = useWatch({ control, name: [...fields] });
  const [tab, setTab] = useState(0);
  const inputs = useRef<(HTMLTextAreaElement | null)[]>([]);
  const field = fields[tab]!;

  function insert(placeholder: string) {
    const input = inputs.current[tab];
    const current = getValues(field) ?? "";
    const start = input?.selectionStart ?? current.length;
    const end = input?.selectionEnd ?? current.length;
    const next = current.slice(0, start) + placeholder + current.slice(end);
    setValue(field, next, { shouldDirty: true, shouldValidate: true });
    window.requestAnimationFrame(() => {
      input?.focus();
      input?.setSelectionRange(start + placeholder.length, start + placeholder.length);
    });
  }

  return (
    <Box>
      <Tabs
        value={tab}
        onChange={(_, value: number) => setTab(value)}
        variant="scrollable"
        allowScrollButtonsMobile
        aria-label={t(
          labelKey === "message" ? "campaigns.dialog.messagesTab" : "campaigns.dialog.confirmationsTab",
        )}
      >
        {fields.map((name, index) => {
          const filled = Boolean(values[index]?.trim());
          return (
            <Tab
              key={name}
              id={`${baseId}-tab-${index}`}
              aria-controls={`${baseId}-panel-${index}`}
              aria-label={t(filled ? "campaigns.dialog.variantFilled" : "campaigns.dialog.variant", {
                n: index + 1,
              })}
              label={
                <Stack direction="row" spacing={0.75} sx={{ alignItems: "center" }}>
                  <span>{index + 1}</span>
                  {filled && (
                    <Box
                      component="span"
                      sx={{ width: 6, height: 6, borderRadius: "50%", bgcolor: "success.main" }}
                    />
                  )}
                  {errors[name] && (
                    <Box
                      component="span"
                      sx={{ width: 6, height: 6, borderRadius: "50%", bgcolor: "error.main" }}
                    />
                  )}
                </Stack>
              }
              sx={{ minWidth: 64 }}
            />
          );
        })}
      </Tabs>
      {fields.map((name, index) => {
        const { ref, ...rest } = register(name);
        return (
          <Box
            key={name}
            role="tabpanel"
            id={`${baseId}-panel-${index}`}
            aria-labelledby={`${baseId}-tab-${index}`}
            hidden={index !== tab}
            sx={{ pt: 1.5 }}
          >
            <TextField
              {...rest}
              inputRef={(element: HTMLTextAreaElement | null) => {
                ref(element);
                inputs.current[index] = element;
              }}
              id={`${baseId}-${name}`}
              label={t(`campaigns.dialog.${labelKey}`, { n: index + 1 })}
              multiline
              minRows={4}
              maxRows={10}
              fullWidth
              disabled={readOnly}
              error={Boolean(errors[name])}
              helperText={fieldErrorText(errors[name])}
            />
          </Box>
        );
      })}
      {!readOnly && (
        <Stack
          direction="row"
          spacing={0.75}
          useFlexGap
          sx={{ flexWrap: "wrap", alignItems: "center", mt: 1 }}
          role="group"
          aria-label={t("campaigns.dialog.insert")}
        >
          <Typography variant="caption" color="text.secondary" sx={{ mr: 0.5 }}>
            {t("campaigns.dialog.insert")}:
          </Typography>
          {BUILT_IN.map((key) => (
            <Chip
              key={key}
              size="small"
              variant="outlined"
              label={`{${key}}`}
              title={t(`campaigns.variables.${key}`)}
              onClick={() => insert(`{${key}}`)}
            />
          ))}
          {variables.map((variable) => (
            <Chip
              key={variable.key}
              size="small"
              variant="outlined"
              color="primary"
              label={`{${variable.key}}`}
              title={variable.value}
              onClick={() => insert(`{${variable.key}}`)}
            />
          ))}
        </Stack>
      )}
    </Box>
  );
}

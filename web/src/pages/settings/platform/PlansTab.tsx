import { PLAN_FLAGS, planCreateSchema, type PlanCreateInput, type PlanRecordDTO } from "@atende/contracts";
import { zodResolver } from "@hookform/resolvers/zod";
import {
  Box,
  Button,
  Chip,
  FormControlLabel,
  Paper,
  Switch,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from "@mui/material";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Controller, useForm, type Resolver } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { deletePlan, fetchPlanRecords, planKeys, refreshPlans, savePlan } from "../../../api/plans";
import { toast } from "../../../api/toast";
import { ConfirmationDialog } from "../../../components/ConfirmationDialog";
import { fieldErrorText, textFieldRegister } from "../../../components/formFields";
import { EmptyRow, SkeletonRows } from "../../../components/TableStates";
import { useConfirmDelete } from "../../../hooks/useConfirmDelete";
import { FormAndTable, FormPanel, fieldGrid, showSaveError, useLoadErrorToast } from "./shared";
import { RowActions } from "../../../components/RowActions";

const LIMIT_FIELDS = ["users", "connections", "queues", "campaigns", "schedules"] as const;
const SWITCHES = [...PLAN_FLAGS, "useInternal"] as const;
type Switch = (typeof SWITCHES)[number];

type PlanFormValues = { name: string; value: string } & Record<(typeof LIMIT_FIELDS)[number], string> &
  Record<Switch, boolean>;
const FIELDS = ["name", "value", ...LIMIT_FIELDS, ...SWITCHES] as const;

// The contract reads the numbers as the form's text ("10", "29.90").
const resolver = zodResolver(planCreateSchema) as unknown as Resolver<
  PlanFormValues,
  unknown,
  PlanCreateInput
>;

function formValues(plan: PlanRecordDTO | null): PlanFormValues {
  const values = {
    name: plan?.name ?? "",
    value: plan ? String(plan.value) : "0",
  } as PlanFormValues;
  for (const field of LIMIT_FIELDS) values[field] = plan ? String(plan[field]) : "0";
  for (const flag of SWITCHES) values[flag] = plan?.[flag] ?? false;
  return values;
}

export function formatPrice(value: number, language: string): string {
  return new Intl.NumberFormat(language, { style: "currency", currency: "BRL" }).format(value);
}

/** Super user: the platform's plans, a form (new or the one picked) above their table. */
export function PlansTab() {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const plans = useQuery({
    queryKey: planKeys.records(),
    queryFn: ({ signal }) => fetchPlanRecords(signal),
    meta: { silent: true },
  });
  useLoadErrorToast(plans);
  const [editing, setEditing] = useState<PlanRecordDTO | null>(null);
  const {
    register,
    control,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<PlanFormValues, unknown, PlanCreateInput>({ defaultValues: formValues(null), resolver });

  function edit(plan: PlanRecordDTO | null) {
    setEditing(plan);
    reset(formValues(plan));
  }

  async function submit(values: PlanCreateInput) {
    try {
      await savePlan(editing?.id ?? null, values);
      await refreshPlans(queryClient);
      toast(t("platform.saved"), "success");
      edit(null);
    } catch (error) {
      showSaveError(error, setError, {
        codes: { ERR_PLAN_NAME_TAKEN: { field: "name", message: t("platform.operationError") } },
        fieldOf: (path) => FIELDS.find((f) => f === path),
      });
    }
  }

  const removal = useConfirmDelete<PlanRecordDTO>(async (plan) => {
    await deletePlan(plan.id);
    if (editing?.id === plan.id) edit(null);
    await refreshPlans(queryClient);
  }, t("platform.saved"));

  const form = (
    <FormPanel
      title={editing ? t("platform.editing", { name: editing.name }) : t("platform.plans.formTitle")}
      aria-label={t("platform.plans.formTitle")}
      onSubmit={handleSubmit(submit)}
      actions={
        <>
          {editing && (
            <Button color="error" onClick={() => removal.ask(editing)}>
              {t("platform.delete")}
            </Button>
          )}
          <Button onClick={() => edit(null)}>{t("platform.clear")}</Button>
          <Button type="submit" variant="contained" loading={isSubmitting}>
            {t("platform.save")}
          </Button>
        </>
      }
    >
      <Box sx={fieldGrid(4)}>
        <TextField
          {...textFieldRegister(register("name"))}
          id="plan-name"
          label={t("platform.plans.name")}
          required
          autoComplete="off"
          error={Boolean(errors.name)}
          helperText={fieldErrorText(errors.name)}
          sx={{ gridColumn: { md: "span 2" } }}
        />
        <TextField
          {...textFieldRegister(register("value"))}
          id="plan-value"
          label={t("platform.plans.value")}
          type="number"
          slotProps={{ htmlInput: { min: 0, step: "0.01" } }}
          error={Boolean(errors.value)}
          helperText={fieldErrorText(errors.value)}
        />
        {LIMIT_FIELDS.map((field) => (
          <TextField
            key={field}
            {...textFieldRegister(register(field))}
            id={`plan-${field}`}
            label={t(`platform.plans.${field}`)}
            type="number"
            slotProps={{ htmlInput: { min: 0, step: 1 } }}
            error={Boolean(errors[field])}
            helperText={
              fieldErrorText(errors[field]) ?? (field === "users" ? t("platform.plans.limitsHint") : " ")
            }
          />
        ))}
      </Box>
      <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 1 }}>
        {t("platform.plans.limitsHint")}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mt: 2, mb: 0.5 }}>
        {t("platform.plans.features")}
      </Typography>
      <Box sx={{ display: "flex", flexWrap: "wrap", columnGap: 2 }}>
        {SWITCHES.map((flag) => (
          <Controller
            key={flag}
            control={control}
            name={flag}
            render={({ field }) => (
              <FormControlLabel
                control={
                  <Switch
                    checked={field.value}
                    onChange={(event) => field.onChange(event.target.checked)}
                    slotProps={{ input: { ref: field.ref } }}
                  />
                }
                label={t(`platform.plans.flags.${flag}`)}
              />
            )}
          />
        ))}
      </Box>
    </FormPanel>
  );

  const columns = 7;
  const table = (
    <TableContainer component={Paper} variant="outlined">
      <Table size="small" aria-label={t("platform.tabs.plans")}>
        <TableHead>
          <TableRow>
            <TableCell>{t("platform.plans.name")}</TableCell>
            <TableCell align="center">{t("platform.plans.users")}</TableCell>
            <TableCell align="center">{t("platform.plans.connections")}</TableCell>
            <TableCell align="center">{t("platform.plans.queues")}</TableCell>
            <TableCell align="right">{t("platform.plans.value")}</TableCell>
            <TableCell>{t("platform.plans.features")}</TableCell>
            <TableCell align="center">{t("platform.actions")}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {plans.isPending && <SkeletonRows rows={3} columns={columns} />}
          {plans.isError && <EmptyRow columns={columns}>{t("platform.loadError")}</EmptyRow>}
          {plans.data?.length === 0 && <EmptyRow columns={columns}>{t("platform.plans.empty")}</EmptyRow>}
          {plans.data?.map((plan) => (
            <TableRow
              key={plan.id}
              hover
              selected={editing?.id === plan.id}
              data-testid={`plan-row-${plan.id}`}
            >
              <TableCell sx={{ fontWeight: 500 }}>{plan.name}</TableCell>
              <TableCell align="center">{plan.users}</TableCell>
              <TableCell align="center">{plan.connections}</TableCell>
              <TableCell align="center">{plan.queues}</TableCell>
              <TableCell align="right" sx={{ whiteSpace: "nowrap" }}>
                {formatPrice(plan.value, i18n.language)}
              </TableCell>
              <TableCell>
                <Box sx={{ display: "flex", flexWrap: "wrap", gap: 0.5 }}>
                  {SWITCHES.filter((flag) => plan[flag]).map((flag) => (
                    <Chip
                      key={flag}
                      size="small"
                      variant="outlined"
                      label={t(`platform.plans.flags.${flag}`)}
                    />
                  ))}
                </Box>
              </TableCell>
              <RowActions
                name={plan.name}
                editLabel={t("platform.edit")}
                deleteLabel={t("platform.delete")}
                onEdit={() => edit(plan)}
                onDelete={() => removal.ask(plan)}
              />
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );

  return (
    <>
      <FormAndTable form={form} table={table} />
      <ConfirmationDialog
        {...removal.dialog}
        title={t("platform.plans.deleteTitle", { name: removal.deleting?.name ?? "" })}
        message={t("platform.deleteConfirm")}
      />
    </>
  );
}

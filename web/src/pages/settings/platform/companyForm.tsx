import {
  RECURRENCES,
  companyCreateSchema,
  companyUpdateSchema,
  type CompanyCreateInput,
  type CompanyDTO,
  type CompanyUpdateInput,
  type Recurrence,
} from "@atende/contracts";
import { zodResolver } from "@hookform/resolvers/zod";
import { Box, MenuItem, TextField } from "@mui/material";
import { useQuery } from "@tanstack/react-query";
import type { Control, FieldErrors, FieldValues, Resolver, UseFormRegister } from "react-hook-form";
import { Controller } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { fetchPlanChoices, planKeys } from "../../../api/plans";
import { DateField } from "../../../components/DateFields";
import { fieldErrorText, textFieldRegister } from "../../../components/formFields";
import { fieldGrid } from "./shared";

/** The company form as typed: the plan's select is "" until one is chosen, the due date "" for none. */
export interface CompanyFormValues {
  name: string;
  email: string;
  phone: string;
  planId: number | "";
  status: boolean;
  dueDate: string;
  recurrence: Recurrence;
  campaignsEnabled: boolean;
}
export const COMPANY_FIELDS = [
  "name",
  "email",
  "phone",
  "planId",
  "status",
  "dueDate",
  "recurrence",
  "campaignsEnabled",
] as const;

export function companyFormValues(company: CompanyDTO | null): CompanyFormValues {
  return {
    name: company?.name ?? "",
    email: company?.email ?? "",
    phone: company?.phone ?? "",
    planId: company?.planId ?? "",
    status: company?.status ?? true,
    dueDate: company?.dueDate?.slice(0, 10) ?? "",
    recurrence: company?.recurrence ?? "MENSAL",
    campaignsEnabled: company?.campaignsEnabled ?? true,
  };
}

/** No plan chosen reads as missing ('Required'), not as an invalid id. */
function withPlan<Out>(schema: Parameters<typeof zodResolver>[0]): Resolver<CompanyFormValues, unknown, Out> {
  const inner = zodResolver(schema) as unknown as Resolver<Record<string, unknown>, unknown, Out>;
  return (values, context, options) =>
    inner(
      { ...values, planId: values.planId === "" ? undefined : values.planId },
      context,
      options as never,
    ) as never;
}
export const companyCreateResolver = withPlan<CompanyCreateInput>(companyCreateSchema);
export const companyUpdateResolver = withPlan<CompanyUpdateInput>(companyUpdateSchema);

export function usePlanChoices() {
  return useQuery({ queryKey: planKeys.choices(), queryFn: ({ signal }) => fetchPlanChoices(signal) });
}

interface CompanyFieldsProps<Out extends FieldValues> {
  register: UseFormRegister<CompanyFormValues>;
  control: Control<CompanyFormValues, unknown, Out>;
  errors: FieldErrors<CompanyFormValues>;
  /** The e-mail field's label and help (the first admin's, when creating). */
  emailLabel: string;
  emailHelp?: string;
  idPrefix: string;
}

/** The company's fields, shared by the Empresas form (edit) and Cadastrar Empresa (create). */
export function CompanyFields<Out extends FieldValues>({
  register,
  control,
  errors,
  emailLabel,
  emailHelp,
  idPrefix,
}: CompanyFieldsProps<Out>) {
  const { t } = useTranslation();
  const plans = usePlanChoices();
  const id = (field: string) => `${idPrefix}-${field}`;
  return (
    <Box sx={fieldGrid(4)}>
      <TextField
        {...textFieldRegister(register("name"))}
        id={id("name")}
        label={t("platform.companies.name")}
        required
        autoComplete="off"
        error={Boolean(errors.name)}
        helperText={fieldErrorText(errors.name) ?? " "}
        sx={{ gridColumn: { md: "span 2" } }}
      />
      <TextField
        {...textFieldRegister(register("email"))}
        id={id("email")}
        label={emailLabel}
        type="email"
        required
        autoComplete="off"
        error={Boolean(errors.email)}
        helperText={fieldErrorText(errors.email) ?? emailHelp ?? " "}
        sx={{ gridColumn: { md: "span 2" } }}
      />
      <TextField
        {...textFieldRegister(register("phone"))}
        id={id("phone")}
        label={t("platform.companies.phone")}
        type="tel"
        autoComplete="off"
        error={Boolean(errors.phone)}
        helperText={fieldErrorText(errors.phone) ?? " "}
      />
      <Controller
        control={control}
        name="planId"
        render={({ field }) => (
          <TextField
            select
            id={id("planId")}
            label={t("platform.companies.plan")}
            required
            value={field.value}
            onChange={(event) => field.onChange(event.target.value === "" ? "" : Number(event.target.value))}
            onBlur={field.onBlur}
            inputRef={field.ref}
            error={Boolean(errors.planId)}
            helperText={
              fieldErrorText(errors.planId) ??
              (plans.data?.length === 0 ? t("platform.companies.noPlans") : " ")
            }
          >
            {(plans.data ?? []).map((plan) => (
              <MenuItem key={plan.id} value={plan.id}>
                {plan.name}
              </MenuItem>
            ))}
          </TextField>
        )}
      />
      <Controller
        control={control}
        name="status"
        render={({ field }) => (
          <TextField
            select
            id={id("status")}
            label={t("platform.companies.status")}
            value={field.value ? "true" : "false"}
            onChange={(event) => field.onChange(event.target.value === "true")}
            inputRef={field.ref}
            helperText=" "
          >
            <MenuItem value="true">{t("platform.companies.active")}</MenuItem>
            <MenuItem value="false">{t("platform.companies.inactive")}</MenuItem>
          </TextField>
        )}
      />
      <Controller
        control={control}
        name="campaignsEnabled"
        render={({ field }) => (
          <TextField
            select
            id={id("campaignsEnabled")}
            label={t("platform.companies.campaignsEnabled")}
            value={field.value ? "true" : "false"}
            onChange={(event) => field.onChange(event.target.value === "true")}
            inputRef={field.ref}
            helperText=" "
          >
            <MenuItem value="true">{t("platform.companies.enabled")}</MenuItem>
            <MenuItem value="false">{t("platform.companies.disabled")}</MenuItem>
          </TextField>
        )}
      />
      <Controller
        control={control}
        name="dueDate"
        render={({ field }) => (
          <DateField
            id={id("dueDate")}
            label={t("platform.companies.dueDate")}
            value={field.value}
            onChange={field.onChange}
            onBlur={field.onBlur}
            inputRef={field.ref}
            error={Boolean(errors.dueDate)}
            helperText={fieldErrorText(errors.dueDate) ?? " "}
          />
        )}
      />
      <Controller
        control={control}
        name="recurrence"
        render={({ field }) => (
          <TextField
            select
            id={id("recurrence")}
            label={t("platform.companies.recurrence")}
            value={field.value}
            onChange={(event) => field.onChange(event.target.value)}
            inputRef={field.ref}
            helperText=" "
          >
            {RECURRENCES.map((recurrence) => (
              <MenuItem key={recurrence} value={recurrence}>
                {t(`platform.companies.recurrences.${recurrence}`)}
              </MenuItem>
            ))}
          </TextField>
        )}
      />
    </Box>
  );
}

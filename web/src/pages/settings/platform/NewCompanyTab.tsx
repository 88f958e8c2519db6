import type { CompanyCreateInput } from "@atende/contracts";
import MailIcon from "@mui/icons-material/MarkEmailReadOutlined";
import { Alert, Button } from "@mui/material";
import { useQueryClient } from "@tanstack/react-query";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { createCompany, refreshCompanyLists } from "../../../api/companies";
import { toast } from "../../../api/toast";
import {
  COMPANY_FIELDS,
  CompanyFields,
  companyCreateResolver,
  companyFormValues,
  type CompanyFormValues,
} from "./companyForm";
import { FormPanel, showSaveError } from "./shared";

export const COMPANY_ERROR_FIELDS = {
  ERR_COMPANY_NAME_TAKEN: "name",
  ERR_EMAIL_ALREADY_EXISTS: "email",
  ERR_COMPANY_PLAN_INVALID: "planId",
} as const;

/** Super user: a new company and its first admin, who gets an e-mail to set a password. */
export function NewCompanyTab({ onCreated }: { onCreated?(): void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const {
    register,
    control,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<CompanyFormValues, unknown, CompanyCreateInput>({
    defaultValues: companyFormValues(null),
    resolver: companyCreateResolver,
  });

  async function submit(values: CompanyCreateInput) {
    try {
      const company = await createCompany(values);
      await refreshCompanyLists(queryClient);
      toast(t("platform.saved"), "success");
      toast(t("platform.companies.created", { name: company.name, email: values.email }), "info");
      reset(companyFormValues(null));
      onCreated?.();
    } catch (error) {
      showSaveError(error, setError, {
        codes: COMPANY_ERROR_FIELDS,
        fieldOf: (path) => COMPANY_FIELDS.find((f) => f === path),
      });
    }
  }

  return (
    <FormPanel
      title={t("platform.companies.newTitle")}
      aria-label={t("platform.companies.newTitle")}
      onSubmit={handleSubmit(submit)}
      actions={
        <>
          <Button onClick={() => reset(companyFormValues(null))}>{t("platform.clear")}</Button>
          <Button type="submit" variant="contained" loading={isSubmitting}>
            {t("platform.save")}
          </Button>
        </>
      }
    >
      <Alert severity="info" icon={<MailIcon />} sx={{ mb: 2.5 }}>
        {t("platform.companies.inviteNote")}
      </Alert>
      <CompanyFields
        register={register}
        control={control}
        errors={errors}
        idPrefix="new-company"
        emailLabel={t("platform.companies.adminEmail")}
        emailHelp={t("platform.companies.adminEmailHelp")}
      />
    </FormPanel>
  );
}

import {
  companySignupSchema,
  SIGNUP_PHONE_MAX,
  type CompanySignupInput,
  type SettingDTO,
} from "@atende/contracts";
import { zodResolver } from "@hookform/resolvers/zod";
import { Box, Button, Link, MenuItem, Stack, TextField, Typography } from "@mui/material";
import { useQuery } from "@tanstack/react-query";
import { Controller, useForm, type Resolver } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { Navigate, Link as RouterLink, useNavigate } from "react-router-dom";
import { signUpCompany } from "../../api/companies";
import { api } from "../../api/http";
import { fetchPlanChoices, planKeys } from "../../api/plans";
import { settingKeys } from "../../api/settings";
import { toast } from "../../api/toast";
import { BrandLogo } from "../../components/BrandLogo";
import { applyServerErrors, fieldErrorText, fieldBinder } from "../../components/formFields";
import { FullPageLoader } from "../../components/FullPageLoader";
import { AuthCard } from "../../components/AuthCard";
import { PasswordField } from "../../components/PasswordField";

interface SignupFormValues {
  name: string;
  email: string;
  password: string;
  phone: string;
  planId: number | "";
}
const FIELDS = ["name", "email", "password", "phone", "planId"] as const;

const schemaResolver = zodResolver(companySignupSchema) as unknown as Resolver<
  Record<string, unknown>,
  unknown,
  CompanySignupInput
>;
/** No plan chosen reads as missing ('Required'). */
const resolver: Resolver<SignupFormValues, unknown, CompanySignupInput> = (values, context, options) =>
  schemaResolver(
    { ...values, planId: values.planId === "" ? undefined : values.planId },
    context,
    options as never,
  ) as never;

/** The spec's mask (99) 99999-9999, at most 11 digits; what is not a digit is dropped as typed. */
export function maskPhone(input: string): string {
  const digits = input.replace(/\D/g, "").slice(0, SIGNUP_PHONE_MAX);
  if (digits.length === 0) return "";
  if (digits.length <= 2) return `(${digits}`;
  const area = digits.slice(0, 2);
  const rest = digits.slice(2);
  return rest.length <= 5 ? `(${area}) ${rest}` : `(${area}) ${rest.slice(0, 5)}-${rest.slice(5)}`;
}

/** Whether the platform takes sign-ups (`allowregister`): /signup and the links to it depend on it. */
export function useRegisterAllowed() {
  return useQuery({
    queryKey: settingKeys.allowRegister(),
    queryFn: ({ signal }) => api.get<SettingDTO>("/settings/allowregister", { signal, anonymous: true }),
    meta: { silent: true },
    retry: false,
  });
}

/** /signup: a company signs itself up for a trial, when the platform allows it; else the visitor goes to /login. */
export function SignupPage() {
  const allowed = useRegisterAllowed();
  if (allowed.isPending) return <FullPageLoader />;
  if (allowed.data?.value !== "enabled") return <Navigate to="/login" replace />;
  return <SignupForm />;
}

function SignupForm() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const plans = useQuery({
    queryKey: planKeys.choices(),
    queryFn: ({ signal }) => fetchPlanChoices(signal),
  });
  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<SignupFormValues, unknown, CompanySignupInput>({
    defaultValues: { name: "", email: "", password: "", phone: "", planId: "" },
    resolver,
  });
  const fieldProps = fieldBinder(register, errors);
  const money = new Intl.NumberFormat(i18n.language, { style: "currency", currency: "BRL" });
  const limit = (n: number) => (n === 0 ? t("platform.signup.noLimit") : n);

  async function submit(values: CompanySignupInput) {
    try {
      await signUpCompany(values);
      toast(t("platform.signup.success"), "success");
      void navigate("/login", { replace: true });
    } catch (error) {
      applyServerErrors(error, setError, {
        codes: {
          ERR_EMAIL_ALREADY_EXISTS: "email",
          ERR_COMPANY_NAME_TAKEN: "name",
          ERR_COMPANY_PLAN_INVALID: "planId",
        },
        fieldOf: (path) => FIELDS.find((f) => f === path),
      });
    }
  }

  return (
    <AuthCard maxWidth={460}>
      <Stack component="form" noValidate spacing={2} onSubmit={handleSubmit(submit)}>
        <BrandLogo target="signup" />
        <Box sx={{ textAlign: "center" }}>
          <Typography variant="h6" component="h1">
            {t("platform.signup.title")}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {t("platform.signup.subtitle")}
          </Typography>
        </Box>
        <TextField
          {...fieldProps("name")}
          id="signup-name"
          label={t("platform.signup.name")}
          autoComplete="organization"
          autoFocus
          required
        />
        <TextField
          {...fieldProps("email")}
          id="signup-email"
          label={t("platform.signup.email")}
          type="email"
          autoComplete="email"
          required
        />
        <Controller
          control={control}
          name="phone"
          render={({ field }) => (
            <TextField
              id="signup-phone"
              label={t("platform.signup.phone")}
              type="tel"
              autoComplete="tel-national"
              placeholder={t("platform.signup.phonePlaceholder")}
              value={field.value}
              onChange={(event) => field.onChange(maskPhone(event.target.value))}
              onBlur={field.onBlur}
              inputRef={field.ref}
              error={Boolean(errors.phone)}
              helperText={fieldErrorText(errors.phone)}
              slotProps={{ htmlInput: { inputMode: "numeric", maxLength: 15 } }}
            />
          )}
        />
        <PasswordField
          {...fieldProps("password")}
          id="signup-password"
          label={t("platform.signup.password")}
          autoComplete="new-password"
          required
        />
        <Controller
          control={control}
          name="planId"
          render={({ field }) => (
            <TextField
              select
              id="signup-plan"
              label={t("platform.signup.plan")}
              required
              value={field.value}
              onChange={(event) =>
                field.onChange(event.target.value === "" ? "" : Number(event.target.value))
              }
              onBlur={field.onBlur}
              inputRef={field.ref}
              error={Boolean(errors.planId)}
              helperText={
                fieldErrorText(errors.planId) ??
                (plans.data?.length === 0 ? t("platform.signup.noPlans") : undefined)
              }
            >
              {(plans.data ?? []).map((plan) => (
                <MenuItem key={plan.id} value={plan.id} sx={{ whiteSpace: "normal" }}>
                  {t("platform.signup.planOption", {
                    name: plan.name,
                    users: limit(plan.users),
                    connections: limit(plan.connections),
                    queues: limit(plan.queues),
                    value: money.format(plan.value),
                  })}
                </MenuItem>
              ))}
            </TextField>
          )}
        />
        <Button type="submit" variant="contained" size="large" loading={isSubmitting}>
          {t("platform.signup.submit")}
        </Button>
        <Link component={RouterLink} to="/login" sx={{ textAlign: "center" }}>
          {t("platform.signup.haveAccount")}
        </Link>
      </Stack>
    </AuthCard>
  );
}

import { zodResolver } from "@hookform/resolvers/zod";
import { Button, Link, Stack, TextField, Typography } from "@mui/material";
import { loginSchema, type LoginInput, type SettingDTO } from "@atende/contracts";
import { useQuery } from "@tanstack/react-query";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router-dom";
import { api, ApiError } from "../../api/http";
import { toast, toastError } from "../../api/toast";
import { useAuth } from "../../auth/AuthContext";
import { BrandLogo } from "../../components/BrandLogo";
import { fieldBinder } from "../../components/formFields";
import { AuthCard } from "../../components/AuthCard";
import { PasswordField } from "../../components/PasswordField";
import { formatDate } from "../../i18n/format";
import { settingKeys } from "../../api/settings";

function useSignupVisible(): boolean {
  const { data } = useQuery({
    queryKey: settingKeys.viewRegister(),
    queryFn: ({ signal }) => api.get<SettingDTO>("/settings/viewregister", { signal, anonymous: true }),
    meta: { silent: true },
    retry: false,
  });
  return data?.value === "enabled";
}

export function LoginPage() {
  const { t } = useTranslation();
  const { login } = useAuth();
  const signupVisible = useSignupVisible();
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<LoginInput>({ resolver: zodResolver(loginSchema), defaultValues: { email: "", password: "" } });
  const fieldProps = fieldBinder(register, errors);

  async function submit(values: LoginInput) {
    try {
      const { subscription } = await login(values);
      toast(t("auth.loginSuccess"), "success");
      if (subscription.expiresSoon)
        toast(t("auth.expiresSoon", { n: subscription.daysLeft ?? 0 }), "warning");
    } catch (error) {
      if (error instanceof ApiError && error.code === "ERR_SUBSCRIPTION_EXPIRED") {
        const { dueDate } = error.body as { dueDate?: string };
        toast(t("auth.subscriptionExpired", { date: formatDate(dueDate) }), "error");
      } else {
        toastError(error);
      }
    }
  }

  return (
    <AuthCard>
      <Stack component="form" noValidate spacing={2} onSubmit={handleSubmit(submit)}>
        <BrandLogo target="login" />
        <Typography variant="h6" component="h1" sx={{ textAlign: "center" }}>
          {t("auth.title")}
        </Typography>
        <TextField
          {...fieldProps("email")}
          id="login-email"
          label={t("auth.email")}
          type="email"
          autoComplete="email"
          autoFocus
          required
        />
        <PasswordField
          {...fieldProps("password")}
          id="login-password"
          label={t("auth.password")}
          autoComplete="current-password"
          required
        />
        <Button type="submit" variant="contained" size="large" loading={isSubmitting}>
          {t("auth.submit")}
        </Button>
        <Stack direction="row" sx={{ justifyContent: "space-between", flexWrap: "wrap", gap: 1 }}>
          <Link component={RouterLink} to="/forgetpsw">
            {t("auth.forgotPassword")}
          </Link>
          {signupVisible && (
            <Link component={RouterLink} to="/signup">
              {t("auth.signup")}
            </Link>
          )}
        </Stack>
      </Stack>
    </AuthCard>
  );
}

import { zodResolver } from "@hookform/resolvers/zod";
import { Box, Button, Link, Paper, Stack, TextField, Typography } from "@mui/material";
import { loginSchema, type LoginInput, type SettingDTO } from "@atende/contracts";
import { useQuery } from "@tanstack/react-query";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router-dom";
import { api, ApiError } from "../../api/http";
import { toast, toastError } from "../../api/toast";
import { useAuth } from "../../auth/AuthContext";
import { BrandLogo } from "../../components/BrandLogo";
import { fieldErrorText, textFieldRegister } from "../../components/formFields";
import { LanguageSwitch } from "../../components/LanguageSwitch";
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
    <Box sx={{ minHeight: "100vh", display: "grid", placeItems: "center", p: 2, position: "relative" }}>
      <Box sx={{ position: "absolute", top: 8, right: 8 }}>
        <LanguageSwitch color="default" />
      </Box>
      <Paper component="main" variant="outlined" sx={{ width: "100%", maxWidth: 400, p: { xs: 3, sm: 4 } }}>
        <Stack component="form" noValidate spacing={2} onSubmit={handleSubmit(submit)}>
          <BrandLogo target="login" />
          <Typography variant="h6" component="h1" sx={{ textAlign: "center" }}>
            {t("auth.title")}
          </Typography>
          <TextField
            {...textFieldRegister(register("email"))}
            id="login-email"
            label={t("auth.email")}
            type="email"
            autoComplete="email"
            autoFocus
            required
            error={Boolean(errors.email)}
            helperText={fieldErrorText(errors.email)}
          />
          <PasswordField
            {...textFieldRegister(register("password"))}
            id="login-password"
            label={t("auth.password")}
            autoComplete="current-password"
            required
            error={Boolean(errors.password)}
            helperText={fieldErrorText(errors.password)}
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
      </Paper>
    </Box>
  );
}

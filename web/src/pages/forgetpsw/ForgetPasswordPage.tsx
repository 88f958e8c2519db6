import LockResetIcon from "@mui/icons-material/LockResetOutlined";
import { zodResolver } from "@hookform/resolvers/zod";
import { Button, Link, Stack, TextField, Typography } from "@mui/material";
import { emailField, resetCodeField, newPasswordField } from "@atende/contracts";
import { useEffect, useState } from "react";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { Link as RouterLink, useNavigate } from "react-router-dom";
import { z } from "zod";
import { requestResetCode, resetPassword } from "../../api/mail";
import { toast, toastError } from "../../api/toast";
import { applyServerErrors, fieldBinder } from "../../components/formFields";
import { AuthCard } from "../../components/AuthCard";
import { PasswordField } from "../../components/PasswordField";
import { useRegisterAllowed } from "../signup/SignupPage";

const emailSchema = z.object({ email: emailField });
type EmailValues = z.infer<typeof emailSchema>;

const resetSchema = z
  .object({
    token: resetCodeField,
    newPassword: newPasswordField,
    confirmPassword: z
      .string({ error: "validation.campoObrigatorio" })
      .min(1, { error: "validation.campoObrigatorio" }),
  })
  .refine((v) => v.newPassword === v.confirmPassword, {
    path: ["confirmPassword"],
    error: "validation.passwordsDiffer",
  });
type ResetValues = z.input<typeof resetSchema>;

/**
 * The e-mail and code a mail's link carries in the fragment (/forgetpsw#email=...&code=...): a
 * fragment never reaches a server, so the code is in no access log. Read once, then wiped from the
 * address bar and the history.
 */
function readLinkFragment(): { email: string; code: string } | null {
  const params = new URLSearchParams(window.location.hash.replace(/^#/, ""));
  const email = params.get("email");
  return email ? { email, code: params.get("code") ?? "" } : null;
}

export function ForgetPasswordPage() {
  const { t } = useTranslation();
  const [fromLink] = useState(readLinkFragment);
  const registerAllowed = useRegisterAllowed();
  const [email, setEmail] = useState<string | null>(fromLink?.email ?? null);
  useEffect(() => {
    if (window.location.hash) window.history.replaceState(window.history.state, "", window.location.pathname);
  }, []);

  return (
    <AuthCard maxWidth={420}>
      <Stack spacing={2}>
        <Stack direction="row" spacing={1} sx={{ alignItems: "center", justifyContent: "center" }}>
          <LockResetIcon color="primary" fontSize="large" aria-hidden />
          <Typography variant="h5" component="h1" sx={{ fontWeight: 700 }}>
            {t("mail.reset.title")}
          </Typography>
        </Stack>
        {email === null ? (
          <EmailStep onDone={setEmail} />
        ) : (
          <CodeStep email={email} initialCode={fromLink?.code ?? ""} onOtherEmail={() => setEmail(null)} />
        )}
        <Stack direction="row" sx={{ justifyContent: "space-between", flexWrap: "wrap", gap: 1 }}>
          <Link component={RouterLink} to="/login">
            {t("mail.reset.backToLogin")}
          </Link>
          {registerAllowed.data?.value === "enabled" && (
            <Link component={RouterLink} to="/signup">
              {t("mail.reset.noAccount")}
            </Link>
          )}
        </Stack>
      </Stack>
    </AuthCard>
  );
}

/** Step 1: the e-mail. It moves on to step 2 whatever the answer (the spec; the server answers alike). */
function EmailStep({ onDone }: { onDone: (email: string) => void }) {
  const { t } = useTranslation();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<EmailValues>({ resolver: zodResolver(emailSchema), defaultValues: { email: "" } });
  const fieldProps = fieldBinder(register, errors);

  async function submit({ email }: EmailValues) {
    try {
      await requestResetCode(email);
      toast(t("mail.reset.sent"), "success");
      onDone(email);
    } catch (error) {
      applyServerErrors(error, setError, { fieldOf: (p) => (p === "email" ? "email" : undefined) });
      // Too many requests, or the server away: the code may still have gone; step 2 lets them try it.
      if (!(error as { fields?: unknown }).fields) onDone(email);
    }
  }

  return (
    <Stack component="form" noValidate spacing={2} onSubmit={handleSubmit(submit)}>
      <Typography color="text.secondary">{t("mail.reset.step1Help")}</Typography>
      <TextField
        {...fieldProps("email")}
        id="reset-email"
        label={t("mail.reset.email")}
        type="email"
        autoComplete="email"
        autoFocus
        required
      />
      <Button type="submit" variant="contained" size="large" loading={isSubmitting}>
        {t("mail.reset.sendEmail")}
      </Button>
    </Stack>
  );
}

/** Step 2: the code from the mail and the new password, twice. */
function CodeStep(props: { email: string; initialCode: string; onOtherEmail: () => void }) {
  const { email, initialCode, onOtherEmail } = props;
  const { t } = useTranslation();
  const navigate = useNavigate();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<ResetValues>({
    resolver: zodResolver(resetSchema),
    defaultValues: { token: initialCode, newPassword: "", confirmPassword: "" },
  });
  const fieldProps = fieldBinder(register, errors);
  const [resending, setResending] = useState(false);

  async function submit(values: ResetValues) {
    try {
      await resetPassword({ email, token: values.token, newPassword: values.newPassword });
      toast(t("mail.reset.done"), "success");
      navigate("/login", { replace: true });
    } catch (error) {
      applyServerErrors(error, setError, {
        codes: { ERR_INVALID_RESET_CODE: "token" },
        fieldOf: (p) => (p === "token" || p === "newPassword" ? p : undefined),
      });
    }
  }

  async function resend() {
    setResending(true);
    try {
      await requestResetCode(email);
      toast(t("mail.reset.sent"), "success");
    } catch (error) {
      toastError(error);
    } finally {
      setResending(false);
    }
  }

  return (
    <Stack component="form" noValidate spacing={2} onSubmit={handleSubmit(submit)}>
      <Typography color="text.secondary">{t("mail.reset.step2Help", { email })}</Typography>
      <TextField
        id="reset-email-shown"
        label={t("mail.reset.email")}
        value={email}
        slotProps={{ input: { readOnly: true } }}
      />
      <TextField
        {...fieldProps("token")}
        id="reset-code"
        label={t("mail.reset.code")}
        autoComplete="one-time-code"
        autoFocus={!initialCode}
        required
        slotProps={{ htmlInput: { inputMode: "numeric" } }}
      />
      <PasswordField
        {...fieldProps("newPassword")}
        id="reset-new-password"
        label={t("mail.reset.newPassword")}
        autoComplete="new-password"
        autoFocus={Boolean(initialCode)}
        required
      />
      <PasswordField
        {...fieldProps("confirmPassword")}
        id="reset-confirm-password"
        label={t("mail.reset.confirmPassword")}
        autoComplete="new-password"
        required
      />
      <Button type="submit" variant="contained" size="large" loading={isSubmitting}>
        {t("mail.reset.submit")}
      </Button>
      <Stack direction="row" sx={{ justifyContent: "space-between", flexWrap: "wrap", gap: 1 }}>
        <Button size="small" onClick={onOtherEmail}>
          {t("mail.reset.otherEmail")}
        </Button>
        <Button size="small" onClick={() => void resend()} loading={resending}>
          {t("mail.reset.resend")}
        </Button>
      </Stack>
    </Stack>
  );
}

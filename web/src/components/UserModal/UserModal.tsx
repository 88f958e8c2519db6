import type { UserDTO, UserUpdateInput } from "@atende/contracts";
import { Stack, TextField } from "@mui/material";
import { useQueryClient } from "@tanstack/react-query";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { toast } from "../../api/toast";
import { saveUser, upsertUserInLists } from "../../api/users";
import { useAuth, useSessionUser } from "../../auth/AuthContext";
import { can } from "../../auth/permissions";
import {
  applyServerErrors,
  fieldErrorText,
  SERVER_ERROR,
  textFieldRegister,
  fieldBinder,
} from "../formFields";
import { PasswordField } from "../PasswordField";
import { AdminUserFields } from "./AdminUserFields";
import { formFieldOf, initialValues, toPayload, userFormResolver, type UserFormValues } from "./userForm";
import { FormDialog } from "../FormDialog";

interface UserModalProps {
  /** The user to edit; null to create one. */
  user: UserDTO | null;
  onClose(): void;
}

/** Creates or edits a user; also the logged-in user's own profile dialog. Esc closes, Enter saves. */
export function UserModal({ user, onClose }: UserModalProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { updateUser } = useAuth();
  const currentUser = useSessionUser();
  const creating = user === null;
  // One's own password changes only with the current one (a stolen session must not take the account).
  const own = !creating && user.id === currentUser.id;
  const rights = {
    profile: can(currentUser, "user-modal:editProfile"),
    queues: can(currentUser, "user-modal:editQueues"),
  };
  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<UserFormValues, unknown, UserUpdateInput>({
    defaultValues: initialValues(user),
    resolver: userFormResolver(creating),
  });
  const fieldProps = fieldBinder(register, errors);

  function showServerErrors(error: unknown) {
    applyServerErrors(error, setError, {
      codes: {
        ERR_INVALID_CREDENTIALS: { field: "oldPassword", message: t("userModal.wrongCurrentPassword") },
        ERR_EMAIL_ALREADY_EXISTS: "email",
      },
      fieldOf: formFieldOf,
    });
  }

  async function submit(values: UserUpdateInput) {
    if (own && values.password && !values.oldPassword) {
      setError(
        "oldPassword",
        { type: SERVER_ERROR, message: t("userModal.currentPasswordNeeded") },
        { shouldFocus: true },
      );
      return;
    }
    try {
      const saved = await saveUser(user?.id ?? null, toPayload(values, rights));
      if (saved) {
        upsertUserInLists(queryClient, saved);
        updateUser(saved);
      }
      toast(t("userModal.saved"), "success");
      onClose();
    } catch (error) {
      showServerErrors(error);
    }
  }

  const title = creating ? "addTitle" : user.id === currentUser.id ? "ownTitle" : "editTitle";
  return (
    <FormDialog
      title={t(`userModal.${title}`)}
      onClose={onClose}
      onSubmit={handleSubmit(submit)}
      submitting={isSubmitting}
    >
      <Stack spacing={2}>
        <TextField {...fieldProps("name")} id="user-name" label={t("userModal.name")} autoFocus required />
        <TextField
          {...fieldProps("email")}
          id="user-email"
          label={t("userModal.email")}
          type="email"
          autoComplete="off"
          required
        />
        <PasswordField
          {...textFieldRegister(register("password"))}
          id="user-password"
          label={t("userModal.password")}
          autoComplete="new-password"
          required={creating}
          error={Boolean(errors.password)}
          helperText={fieldErrorText(errors.password) ?? (creating ? undefined : t("userModal.keepPassword"))}
        />
        {own && (
          <PasswordField
            {...textFieldRegister(register("oldPassword"))}
            id="user-old-password"
            label={t("userModal.currentPassword")}
            autoComplete="current-password"
            error={Boolean(errors.oldPassword)}
            helperText={fieldErrorText(errors.oldPassword) ?? t("userModal.currentPasswordHelp")}
          />
        )}
        <AdminUserFields control={control} errors={errors} rights={rights} />
      </Stack>
    </FormDialog>
  );
}

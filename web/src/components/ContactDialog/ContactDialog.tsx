import type { ContactCreateInput, ContactDTO, DuplicatedContactError } from "@atende/contracts";
import AddIcon from "@mui/icons-material/Add";
import RemoveIcon from "@mui/icons-material/Close";
import { Alert, Box, Button, IconButton, Stack, TextField, Typography } from "@mui/material";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useFieldArray, useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { saveContact, upsertContactInLists } from "../../api/contacts";
import { ApiError } from "../../api/http";
import { toast } from "../../api/toast";
import { applyServerErrors, fieldErrorText, textFieldRegister, fieldBinder } from "../formFields";
import { contactFormResolver, formFieldOf, initialValues, type ContactFormValues } from "./contactForm";
import { FormDialog } from "../FormDialog";

interface ContactDialogProps {
  /** The contact to edit; null to create one. */
  contact: ContactDTO | null;
  /** Switches the dialog to the contact that already has the typed number. */
  onOpenExisting(contact: ContactDTO): void;
  onClose(): void;
}

function duplicateOf(error: unknown): ContactDTO | null {
  if (!(error instanceof ApiError) || error.code !== "ERR_DUPLICATED_CONTACT") return null;
  return (error.body as DuplicatedContactError).existingContact ?? null;
}

/** Creates or edits a contact: name, number, email and the extra-info list. Esc closes, Enter saves. */
export function ContactDialog({ contact, onOpenExisting, onClose }: ContactDialogProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [existing, setExisting] = useState<ContactDTO | null>(null);
  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<ContactFormValues, unknown, ContactCreateInput>({
    defaultValues: initialValues(contact),
    resolver: contactFormResolver,
  });
  const fieldProps = fieldBinder(register, errors);
  const extra = useFieldArray({ control, name: "extraInfo" });

  function showServerErrors(error: unknown) {
    setExisting(duplicateOf(error));
    applyServerErrors(error, setError, {
      codes: { ERR_DUPLICATED_CONTACT: "number", ERR_WAPP_INVALID_CONTACT: "number" },
      fieldOf: formFieldOf,
    });
  }

  async function submit(values: ContactCreateInput) {
    setExisting(null);
    try {
      const saved = await saveContact(contact?.id ?? null, {
        name: values.name,
        number: values.number,
        email: values.email,
        extraInfo: values.extraInfo.map(({ name, value }) => ({ name, value })),
      });
      upsertContactInLists(queryClient, saved);
      toast(t("contacts.dialog.saved"), "success");
      onClose();
    } catch (error) {
      showServerErrors(error);
    }
  }

  return (
    <FormDialog
      title={t(contact ? "contacts.dialog.editTitle" : "contacts.dialog.addTitle")}
      onClose={onClose}
      onSubmit={handleSubmit(submit)}
      submitting={isSubmitting}
    >
      <Stack spacing={2}>
        <Typography variant="subtitle2" color="text.secondary">
          {t("contacts.dialog.data")}
        </Typography>
        <TextField
          {...fieldProps("name")}
          id="contact-name"
          label={t("contacts.dialog.name")}
          autoFocus
          required
        />
        <TextField
          {...textFieldRegister(register("number"))}
          id="contact-number"
          label={t("contacts.dialog.number")}
          type="tel"
          autoComplete="off"
          required
          error={Boolean(errors.number)}
          helperText={fieldErrorText(errors.number) ?? t("contacts.dialog.numberHint")}
        />
        {existing && (
          <Alert
            severity="info"
            action={
              <Button color="inherit" size="small" onClick={() => onOpenExisting(existing)}>
                {t("contacts.dialog.openExisting")}
              </Button>
            }
          >
            {t("contacts.dialog.alreadyExists", { name: existing.name })}
          </Alert>
        )}
        <TextField
          {...fieldProps("email")}
          id="contact-email"
          label={t("contacts.dialog.email")}
          type="email"
          autoComplete="off"
        />
        <Typography variant="subtitle2" color="text.secondary" sx={{ pt: 1 }}>
          {t("contacts.dialog.extraInfo")}
        </Typography>
        {extra.fields.map((field, index) => (
          <Stack key={field.id} direction="row" spacing={1} sx={{ alignItems: "flex-start" }}>
            <TextField
              {...textFieldRegister(register(`extraInfo.${index}.name`))}
              label={t("contacts.dialog.extraName")}
              size="small"
              required
              sx={{ flex: 1 }}
              error={Boolean(errors.extraInfo?.[index]?.name)}
              helperText={fieldErrorText(errors.extraInfo?.[index]?.name)}
            />
            <TextField
              {...textFieldRegister(register(`extraInfo.${index}.value`))}
              label={t("contacts.dialog.extraValue")}
              size="small"
              sx={{ flex: 1 }}
              error={Boolean(errors.extraInfo?.[index]?.value)}
              helperText={fieldErrorText(errors.extraInfo?.[index]?.value)}
            />
            <IconButton
              aria-label={t("contacts.dialog.removeExtra")}
              onClick={() => extra.remove(index)}
              sx={{ mt: 0.5 }}
            >
              <RemoveIcon fontSize="small" />
            </IconButton>
          </Stack>
        ))}
        <Box>
          <Button
            startIcon={<AddIcon />}
            size="small"
            onClick={() => extra.append({ name: "", value: "" }, { shouldFocus: true })}
          >
            {t("contacts.dialog.addExtra")}
          </Button>
        </Box>
      </Stack>
    </FormDialog>
  );
}

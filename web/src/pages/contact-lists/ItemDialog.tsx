import {
  type ContactListItemDTO,
  contactListItemEmailField,
  contactListItemNameField,
  contactListItemNumberField,
} from "@atende/contracts";
import { zodResolver } from "@hookform/resolvers/zod";
import { Stack, TextField } from "@mui/material";
import { useQueryClient } from "@tanstack/react-query";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { contactListKeys, saveItem } from "../../api/contactLists";
import { toast } from "../../api/toast";
import { FormDialog } from "../../components/FormDialog";
import { applyServerErrors, fieldErrorText, textFieldRegister } from "../../components/formFields";

const itemFormSchema = z.object({
  name: contactListItemNameField,
  number: contactListItemNumberField,
  email: contactListItemEmailField,
});
type ItemFormValues = z.input<typeof itemFormSchema>;
type ItemFormOutput = z.output<typeof itemFormSchema>;
const FIELDS = ["name", "number", "email"] as const;

/** Adds or edits one item: name 2-50, number 8-50, email valid ('Invalid email'). */
export function ItemDialog({
  listId,
  item,
  onClose,
}: {
  listId: number;
  item: ContactListItemDTO | null;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<ItemFormValues, unknown, ItemFormOutput>({
    defaultValues: { name: item?.name ?? "", number: item?.number ?? "", email: item?.email ?? "" },
    resolver: zodResolver(itemFormSchema),
  });

  async function submit(values: ItemFormOutput) {
    try {
      await saveItem(item?.id ?? null, listId, values);
      await queryClient.invalidateQueries({ queryKey: contactListKeys.items(listId) });
      toast(t("contactLists.items.saved"), "success");
      onClose();
    } catch (error) {
      applyServerErrors(error, setError, {
        codes: { ERR_CONTACT_LIST_ITEM_DUPLICATED: "number", ERR_CONTACT_LIST_ITEM_INVALID_NUMBER: "number" },
        fieldOf: (path) => FIELDS.find((f) => f === path),
      });
    }
  }

  return (
    <FormDialog
      title={t(item ? "contactLists.items.dialog.editTitle" : "contactLists.items.dialog.addTitle")}
      maxWidth="xs"
      onClose={onClose}
      onSubmit={handleSubmit(submit)}
      submitting={isSubmitting}
    >
      <Stack spacing={2.5}>
        {FIELDS.map((field, i) => (
          <TextField
            key={field}
            {...textFieldRegister(register(field))}
            id={`contact-list-item-${field}`}
            label={t(`contactLists.items.dialog.${field}`)}
            autoFocus={i === 0}
            required={field !== "email"}
            autoComplete="off"
            error={Boolean(errors[field])}
            helperText={fieldErrorText(errors[field])}
          />
        ))}
      </Stack>
    </FormDialog>
  );
}

import { queueOptionUpdateSchema, type QueueOptionDTO } from "@atende/contracts";
import { zodResolver } from "@hookform/resolvers/zod";
import { Stack, TextField } from "@mui/material";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { createQueueOption, updateQueueOption } from "../../../api/queues";
import { toast } from "../../../api/toast";
import { applyServerErrors, fieldErrorText, textFieldRegister } from "../../../components/formFields";
import { FormDialog } from "../../../components/FormDialog";

/** What the option dialog adds or edits: a new option under a parent (null: the first menu), or one option. */
export type OptionEditing =
  { mode: "add"; queueId: number; parent: QueueOptionDTO | null } | { mode: "edit"; option: QueueOptionDTO };

const optionFormSchema = z.object({
  title: queueOptionUpdateSchema.shape.title.unwrap(),
  message: z.string().max(4096, "validation.tooLong"),
  option: z.string().regex(/^\d{0,3}$/, "validation.invalid"),
});
type OptionFormValues = z.infer<typeof optionFormSchema>;
const FIELDS = ["title", "message", "option"] as const;

interface OptionDialogProps {
  editing: OptionEditing;
  onSaved(option: QueueOptionDTO): void;
  onClose(): void;
}

/** Title, message and number of one chatbot option; saved at once, on its own. */
export function OptionDialog({ editing, onSaved, onClose }: OptionDialogProps) {
  const { t } = useTranslation();
  const current = editing.mode === "edit" ? editing.option : null;
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<OptionFormValues>({
    defaultValues: {
      title: current?.title ?? "",
      message: current?.message ?? "",
      option: current ? String(current.option) : "",
    },
    resolver: zodResolver(optionFormSchema),
  });

  async function submit(values: OptionFormValues) {
    const payload = {
      title: values.title,
      message: values.message,
      ...(values.option === "" ? {} : { option: Number(values.option) }),
    };
    try {
      const saved =
        editing.mode === "edit"
          ? await updateQueueOption(editing.option.id, payload)
          : await createQueueOption(editing.queueId, editing.parent?.id ?? null, payload);
      toast(t("queues.options.saved"), "success");
      onSaved(saved);
    } catch (error) {
      applyServerErrors(error, setError, {
        codes: { ERR_QUEUE_OPTION_NUMBER_TAKEN: "option" },
        fieldOf: (path) => FIELDS.find((f) => f === path),
      });
    }
  }

  const title =
    editing.mode === "edit"
      ? t("queues.options.editTitle")
      : editing.parent
        ? t("queues.options.addChildTitle", { title: editing.parent.title })
        : t("queues.options.addTitle");

  return (
    <FormDialog
      title={title}
      onClose={onClose}
      onSubmit={(event) => {
        // This dialog sits inside the queue dialog's form in React's tree: its submit stays here.
        event.stopPropagation();
        void handleSubmit(submit)(event);
      }}
      submitting={isSubmitting}
    >
      <Stack spacing={2.5}>
        <Stack direction="row" spacing={2}>
          <TextField
            {...textFieldRegister(register("option"))}
            id="queue-option-number"
            label={t("queues.options.number")}
            type="number"
            error={Boolean(errors.option)}
            helperText={
              fieldErrorText(errors.option) ?? (current ? undefined : t("queues.options.numberHelp"))
            }
            slotProps={{ htmlInput: { min: 0, max: 999 } }}
            sx={{ width: 140 }}
          />
          <TextField
            {...textFieldRegister(register("title"))}
            id="queue-option-title"
            label={t("queues.options.title")}
            autoFocus
            required
            autoComplete="off"
            error={Boolean(errors.title)}
            helperText={fieldErrorText(errors.title)}
            sx={{ flex: 1 }}
          />
        </Stack>
        <TextField
          {...textFieldRegister(register("message"))}
          id="queue-option-message"
          label={t("queues.options.message")}
          multiline
          minRows={3}
          maxRows={8}
          error={Boolean(errors.message)}
          helperText={fieldErrorText(errors.message)}
        />
      </Stack>
    </FormDialog>
  );
}

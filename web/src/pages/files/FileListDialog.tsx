import { type FileListDTO, fileListMessageField, fileListNameField } from "@atende/contracts";
import { zodResolver } from "@hookform/resolvers/zod";
import AddIcon from "@mui/icons-material/Add";
import AttachFileIcon from "@mui/icons-material/AttachFile";
import CloseIcon from "@mui/icons-material/Close";
import { Button, IconButton, Stack, TextField, Typography } from "@mui/material";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { fileListKeys, saveFileList, uploadFileListFiles } from "../../api/fileLists";
import { toast } from "../../api/toast";
import { FormDialog } from "../../components/FormDialog";
import { applyServerErrors, fieldErrorText, textFieldRegister } from "../../components/formFields";

const formSchema = z.object({ name: fileListNameField, message: fileListMessageField });
type FormValues = z.input<typeof formSchema>;
type FormOutput = z.output<typeof formSchema>;

/** One file row of the dialog: an existing option (id) or a new one, with the file chosen now. */
interface OptionRow {
  key: string;
  id?: number;
  name: string;
  path: string;
  file: File | null;
}

/** Creates or edits a file list: name (min 3, 'nome muito curto'), message, and its files. */
export function FileListDialog({ fileList, onClose }: { fileList: FileListDTO | null; onClose(): void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [options, setOptions] = useState<OptionRow[]>(
    (fileList?.options ?? []).map((o) => ({
      key: `o${o.id}`,
      id: o.id,
      name: o.name,
      path: o.path,
      file: null,
    })),
  );
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<FormValues, unknown, FormOutput>({
    defaultValues: { name: fileList?.name ?? "", message: fileList?.message ?? "" },
    resolver: zodResolver(formSchema),
  });

  const change = (key: string, patch: Partial<OptionRow>) =>
    setOptions((rows) => rows.map((r) => (r.key === key ? { ...r, ...patch } : r)));

  async function submit(values: FormOutput) {
    try {
      const named = options.filter((o) => o.name.trim() || o.file);
      const saved = await saveFileList(fileList?.id ?? null, {
        ...values,
        options: named.map((o) => ({ ...(o.id ? { id: o.id } : {}), name: o.name.trim() || o.file!.name })),
      });
      // The saved options follow the order sent: each chosen file goes to its row's option.
      const uploads = named
        .map((o, i) => ({ optionId: saved.options[i]?.id, file: o.file }))
        .filter((u): u is { optionId: number; file: File } => Boolean(u.optionId && u.file));
      if (uploads.length) await uploadFileListFiles(saved.id, uploads);
      await queryClient.invalidateQueries({ queryKey: fileListKeys.lists() });
      toast(t("contactLists.files.saved"), "success");
      onClose();
    } catch (error) {
      applyServerErrors(error, setError, {
        fieldOf: (path) => (path === "name" || path === "message" ? path : undefined),
      });
    }
  }

  return (
    <FormDialog
      title={t(fileList ? "contactLists.files.dialog.editTitle" : "contactLists.files.dialog.addTitle")}
      maxWidth="sm"
      onClose={onClose}
      onSubmit={handleSubmit(submit)}
      submitting={isSubmitting}
    >
      <Stack spacing={2.5}>
        <TextField
          {...textFieldRegister(register("name"))}
          id="file-list-name"
          label={t("contactLists.files.dialog.name")}
          autoFocus
          required
          autoComplete="off"
          error={Boolean(errors.name)}
          helperText={fieldErrorText(errors.name)}
        />
        <TextField
          {...textFieldRegister(register("message"))}
          id="file-list-message"
          label={t("contactLists.files.dialog.message")}
          required
          multiline
          minRows={3}
          error={Boolean(errors.message)}
          helperText={fieldErrorText(errors.message)}
        />
        <Typography variant="subtitle2">{t("contactLists.files.dialog.options")}</Typography>
        {options.map((o) => (
          <Stack key={o.key} direction="row" spacing={1} sx={{ alignItems: "center" }}>
            <TextField
              size="small"
              label={t("contactLists.files.dialog.optionName")}
              value={o.name}
              onChange={(e) => change(o.key, { name: e.target.value })}
              sx={{ flexGrow: 1 }}
            />
            <Button
              component="label"
              size="small"
              startIcon={<AttachFileIcon />}
              sx={{ whiteSpace: "nowrap" }}
            >
              {o.file?.name ?? (o.path ? o.path.split("/").pop() : t("contactLists.files.dialog.choose"))}
              <input
                type="file"
                hidden
                onChange={(e) => change(o.key, { file: e.target.files?.[0] ?? null })}
              />
            </Button>
            <IconButton
              size="small"
              aria-label={t("contactLists.files.dialog.removeOption")}
              onClick={() => setOptions((rows) => rows.filter((r) => r.key !== o.key))}
            >
              <CloseIcon fontSize="small" />
            </IconButton>
          </Stack>
        ))}
        <Button
          startIcon={<AddIcon />}
          sx={{ alignSelf: "flex-start" }}
          onClick={() =>
            setOptions((rows) => [
              ...rows,
              { key: `n${Date.now()}${rows.length}`, name: "", path: "", file: null },
            ])
          }
        >
          {t("contactLists.files.dialog.addOption")}
        </Button>
      </Stack>
    </FormDialog>
  );
}

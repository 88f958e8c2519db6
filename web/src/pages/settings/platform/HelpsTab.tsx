import { helpCreateSchema, type HelpDTO } from "@atende/contracts";
import { zodResolver } from "@hookform/resolvers/zod";
import {
  Box,
  Button,
  Paper,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TextField,
} from "@mui/material";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import type { z } from "zod";
import { deleteHelp, fetchHelps, helpKeys, refreshHelps, saveHelp } from "../../../api/helps";
import { toast } from "../../../api/toast";
import { ConfirmationDialog } from "../../../components/ConfirmationDialog";
import { fieldErrorText, textFieldRegister } from "../../../components/formFields";
import { EmptyRow, SkeletonRows } from "../../../components/TableStates";
import { useConfirmDelete } from "../../../hooks/useConfirmDelete";
import { FormAndTable, FormPanel, fieldGrid, showSaveError, useLoadErrorToast } from "./shared";
import { RowActions } from "../../../components/RowActions";

const helpFormSchema = helpCreateSchema.pick({ title: true, video: true, description: true });
type HelpFormValues = z.input<typeof helpFormSchema>;
type HelpFormOutput = z.output<typeof helpFormSchema>;
const resolver = zodResolver(helpFormSchema);
const FIELDS = ["title", "video", "description"] as const;

function formValues(help: HelpDTO | null): HelpFormValues {
  return { title: help?.title ?? "", video: help?.video ?? "", description: help?.description ?? "" };
}

/** Super user: the help videos every company sees on /helps, a form above their table. */
export function HelpsTab() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const helps = useQuery({
    queryKey: helpKeys.list(),
    queryFn: ({ signal }) => fetchHelps(signal),
    meta: { silent: true },
  });
  useLoadErrorToast(helps);
  const [editing, setEditing] = useState<HelpDTO | null>(null);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<HelpFormValues, unknown, HelpFormOutput>({ defaultValues: formValues(null), resolver });

  function edit(help: HelpDTO | null) {
    setEditing(help);
    reset(formValues(help));
  }

  async function submit(values: HelpFormOutput) {
    try {
      await saveHelp(editing?.id ?? null, values);
      await refreshHelps(queryClient);
      toast(t("platform.saved"), "success");
      edit(null);
    } catch (error) {
      showSaveError(error, setError, { fieldOf: (path) => FIELDS.find((f) => f === path) });
    }
  }

  const removal = useConfirmDelete<HelpDTO>(async (help) => {
    await deleteHelp(help.id);
    if (editing?.id === help.id) edit(null);
    await refreshHelps(queryClient);
  }, t("platform.saved"));

  const form = (
    <FormPanel
      title={editing ? t("platform.editing", { name: editing.title }) : t("platform.helps.formTitle")}
      aria-label={t("platform.helps.formTitle")}
      onSubmit={handleSubmit(submit)}
      actions={
        <>
          {editing && (
            <Button color="error" onClick={() => removal.ask(editing)}>
              {t("platform.delete")}
            </Button>
          )}
          <Button onClick={() => edit(null)}>{t("platform.clear")}</Button>
          <Button type="submit" variant="contained" loading={isSubmitting}>
            {t("platform.save")}
          </Button>
        </>
      }
    >
      <Box sx={fieldGrid(2)}>
        <TextField
          {...textFieldRegister(register("title"))}
          id="help-title"
          label={t("platform.helps.title")}
          required
          autoComplete="off"
          error={Boolean(errors.title)}
          helperText={fieldErrorText(errors.title) ?? " "}
        />
        <TextField
          {...textFieldRegister(register("video"))}
          id="help-video"
          label={t("platform.helps.video")}
          required
          autoComplete="off"
          error={Boolean(errors.video)}
          helperText={fieldErrorText(errors.video) ?? t("platform.helps.videoHelp")}
        />
        <TextField
          {...textFieldRegister(register("description"))}
          id="help-description"
          label={t("platform.helps.description")}
          multiline
          minRows={2}
          error={Boolean(errors.description)}
          helperText={fieldErrorText(errors.description)}
          sx={{ gridColumn: { sm: "1 / -1" } }}
        />
      </Box>
    </FormPanel>
  );

  const columns = 4;
  const table = (
    <TableContainer component={Paper} variant="outlined">
      <Table size="small" aria-label={t("platform.tabs.helps")}>
        <TableHead>
          <TableRow>
            <TableCell>{t("platform.helps.title")}</TableCell>
            <TableCell>{t("platform.helps.video")}</TableCell>
            <TableCell>{t("platform.helps.description")}</TableCell>
            <TableCell align="center">{t("platform.actions")}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {helps.isPending && <SkeletonRows rows={3} columns={columns} />}
          {helps.isError && <EmptyRow columns={columns}>{t("platform.loadError")}</EmptyRow>}
          {helps.data?.length === 0 && <EmptyRow columns={columns}>{t("platform.helps.empty")}</EmptyRow>}
          {helps.data?.map((help) => (
            <TableRow key={help.id} hover selected={editing?.id === help.id}>
              <TableCell sx={{ fontWeight: 500 }}>{help.title}</TableCell>
              <TableCell sx={{ fontFamily: "monospace" }}>{help.video}</TableCell>
              <TableCell sx={{ maxWidth: 420, color: "text.secondary" }}>
                <Box
                  component="span"
                  sx={{
                    display: "-webkit-box",
                    WebkitLineClamp: 2,
                    WebkitBoxOrient: "vertical",
                    overflow: "hidden",
                  }}
                >
                  {help.description}
                </Box>
              </TableCell>
              <RowActions
                name={help.title}
                editLabel={t("platform.edit")}
                deleteLabel={t("platform.delete")}
                onEdit={() => edit(help)}
                onDelete={() => removal.ask(help)}
              />
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );

  return (
    <>
      <FormAndTable form={form} table={table} />
      <ConfirmationDialog
        {...removal.dialog}
        title={t("platform.helps.deleteTitle", { name: removal.deleting?.title ?? "" })}
        message={t("platform.deleteConfirm")}
      />
    </>
  );
}

import { Box, Paper, Stack, Typography } from "@mui/material";
import type { UseQueryResult } from "@tanstack/react-query";
import { useEffect, type FormEventHandler, type ReactNode } from "react";
import type { FieldValues, Path, UseFormSetError } from "react-hook-form";
import { ApiError } from "../../../api/http";
import { toast, toastError } from "../../../api/toast";
import { applyServerErrors, type ServerErrorPlaces } from "../../../components/formFields";
import i18n from "../../../i18n";

/** The spec's 'Nao foi possivel carregar a lista de registros', once per failure of the tab's list. */
export function useLoadErrorToast(query: Pick<UseQueryResult, "isError" | "errorUpdatedAt">): void {
  const { isError, errorUpdatedAt } = query;
  useEffect(() => {
    if (isError) toast(i18n.t("platform.loadError"), "error");
  }, [isError, errorUpdatedAt]);
}

/**
 * A paged list whose failure reads as the spec's 'Nao foi possivel carregar a lista de registros'
 * (the list hooks toast what the fetch throws); a cancelled fetch or an ended session stays as it is.
 */
export function withLoadError<A extends unknown[], R>(fetch: (...args: A) => Promise<R>) {
  return async (...args: A): Promise<R> => {
    try {
      return await fetch(...args);
    } catch (error) {
      if (!(error instanceof ApiError) || error.sessionEnded) throw error;
      throw new ApiError(error.status, i18n.t("platform.loadError"));
    }
  };
}

/**
 * A failed save: an error that belongs to a field goes under it (applyServerErrors); one the
 * catalogue words goes to a toast as it is; anything else is the spec's 'Nao foi possivel realizar
 * a operacao' with its hint about a duplicate name or the fields.
 */
export function showSaveError<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  places: ServerErrorPlaces<Path<T>>,
): void {
  const apiError = error instanceof ApiError ? error : undefined;
  const code = apiError?.code;
  const forField = (code && places.codes?.[code]) || Object.keys(apiError?.fields ?? {}).some(places.fieldOf);
  if (forField) {
    applyServerErrors(error, setError, places);
  } else if (apiError?.sessionEnded) {
    return;
  } else if (code && code !== "ERR_INTERNAL" && i18n.exists(`errors.${code}`)) {
    toastError(error);
  } else {
    toast(i18n.t("platform.operationError"), "error");
  }
}

interface FormPanelProps {
  title: ReactNode;
  onSubmit: FormEventHandler<HTMLFormElement>;
  children: ReactNode;
  /** The buttons under the fields (Save, Clear, Delete). */
  actions: ReactNode;
  "aria-label"?: string;
}

/** The form half of a "form plus table" tab: a titled, outlined form with its buttons at the end. */
export function FormPanel({ title, onSubmit, children, actions, ...rest }: FormPanelProps) {
  return (
    <Paper
      variant="outlined"
      component="form"
      noValidate
      onSubmit={onSubmit}
      aria-label={rest["aria-label"]}
      sx={{ p: { xs: 2, sm: 2.5 } }}
    >
      <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 2 }}>
        {title}
      </Typography>
      {children}
      <Stack direction="row" spacing={1} sx={{ mt: 2, justifyContent: "flex-end", flexWrap: "wrap" }}>
        {actions}
      </Stack>
    </Paper>
  );
}

/** A tab's column layout: the form, then the table. */
export function FormAndTable({ form, table }: { form: ReactNode; table: ReactNode }) {
  return (
    <Stack spacing={2.5}>
      {form}
      <Box>{table}</Box>
    </Stack>
  );
}

/** A field grid: one column on a phone, `columns` from md. */
export const fieldGrid = (columns: number) =>
  ({
    display: "grid",
    gap: 2,
    gridTemplateColumns: { xs: "1fr", sm: "1fr 1fr", md: `repeat(${columns}, 1fr)` },
  }) as const;

import { validationMessage } from "@atende/contracts";
import {
  get,
  type FieldError,
  type FieldErrors,
  type FieldValues,
  type Path,
  type UseFormRegister,
  type UseFormRegisterReturn,
  type UseFormSetError,
} from "react-hook-form";
import { ApiError } from "../api/http";
import { toastError } from "../api/toast";
import i18n, { currentLanguage } from "../i18n";

/** react-hook-form's register() for an MUI TextField: the ref belongs on the inner input. */
export function textFieldRegister({ ref, ...rest }: UseFormRegisterReturn) {
  return { ...rest, inputRef: ref };
}

/**
 * A form's fields for MUI text fields: `fieldProps("title")` registers the field and shows its
 * error under it, in place of the same three props written out on every field.
 */
export function fieldBinder<T extends FieldValues>(register: UseFormRegister<T>, errors: FieldErrors<T>) {
  return (name: Path<T>) => {
    const error = get(errors, name) as FieldError | undefined;
    return { ...textFieldRegister(register(name)), error: Boolean(error), helperText: fieldErrorText(error) };
  };
}

/** Errors set from a server answer are already translated. */
export const SERVER_ERROR = "server";

/**
 * A field's error text. Schema messages are keys of the contracts' VALIDATION_MESSAGES
 * ("validation.tooShort"), read here rather than loaded into i18next: they come with zod, which
 * only the form pages load. Server messages arrive translated and show as they are.
 */
export function fieldErrorText(error: { type?: unknown; message?: string } | undefined): string | undefined {
  if (!error?.message) return undefined;
  return error.type === SERVER_ERROR ? error.message : validationMessage(error.message, currentLanguage());
}

/** Where a form shows a failed save's answer. */
export interface ServerErrorPlaces<P extends string> {
  /**
   * ERR_* codes that belong to one field: shown under it, focused, as `errors.<code>` in the
   * user's language unless a message is given.
   */
  codes?: Partial<Record<string, P | { field: P; message: string }>>;
  /** The form field for a path of the answer's `fields` ("schedules.0.startTime"); undefined if the form has none. */
  fieldOf(path: string): P | undefined;
  /** A path the form shows outside its fields (an attachment's own line): true once shown. */
  elsewhere?(path: string, message: string): boolean;
}

/**
 * Puts a failed save's 4xx answer where the user looks: a code that belongs to one field under it;
 * otherwise each of the answer's field errors under its field; a toast when none fits the form.
 * Returns the path of the first error placed (a tabbed dialog brings its tab forward), or undefined
 * when the answer went to a toast.
 */
export function applyServerErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  places: ServerErrorPlaces<Path<T>>,
): string | undefined {
  const apiError = error instanceof ApiError ? error : undefined;
  const code = apiError?.code;
  const forCode = code ? places.codes?.[code] : undefined;
  if (code && forCode) {
    const { field, message } =
      typeof forCode === "string" ? { field: forCode, message: i18n.t(`errors.${code}`) } : forCode;
    setError(field, { type: SERVER_ERROR, message }, { shouldFocus: true });
    return field;
  }
  let first: string | undefined;
  for (const [path, message] of Object.entries(apiError?.fields ?? {})) {
    const field = places.fieldOf(path);
    if (field) setError(field, { type: SERVER_ERROR, message });
    const shown = Boolean(field) || (places.elsewhere?.(path, message) ?? false);
    if (shown) first ??= path;
  }
  if (first === undefined) toastError(error);
  return first;
}

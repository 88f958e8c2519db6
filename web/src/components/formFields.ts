import { validationMessage } from "@atende/contracts";
import type { UseFormRegisterReturn } from "react-hook-form";
import { currentLanguage } from "../i18n";

/** react-hook-form's register() for an MUI TextField: the ref belongs on the inner input. */
export function textFieldRegister({ ref, ...rest }: UseFormRegisterReturn) {
  return { ...rest, inputRef: ref };
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

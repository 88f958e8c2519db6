import { type QuickMessageDTO, quickMessageShortcodeField, quickMessageTextField } from "@atende/contracts";
import { zodResolver } from "@hookform/resolvers/zod";
import { z } from "zod";

/** The dialog's fields, checked with the contracts' own rules (shortcode 'Obrigatório'). */
export const quickMessageFormSchema = z.object({
  shortcode: quickMessageShortcodeField,
  message: quickMessageTextField,
  geral: z.boolean(),
});
export type QuickMessageFormValues = z.input<typeof quickMessageFormSchema>;
export type QuickMessageFormOutput = z.output<typeof quickMessageFormSchema>;

export const quickMessageFormResolver = zodResolver(quickMessageFormSchema);

export function initialQuickMessageValues(quickMessage: QuickMessageDTO | null): QuickMessageFormValues {
  return {
    shortcode: quickMessage?.shortcode ?? "",
    message: quickMessage?.message ?? "",
    geral: quickMessage?.geral ?? false,
  };
}

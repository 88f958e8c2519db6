import { DEFAULT_TAG_COLOR, type TagDTO, tagColorField, tagNameField } from "@atende/contracts";
import { zodResolver } from "@hookform/resolvers/zod";
import { z } from "zod";
import type { TagPayload } from "../../api/tags";

/** The dialog's fields, checked with the contracts' own rules ('Obrigatório', 'Mensagem muito curta'). */
export const tagFormSchema = z.object({
  name: tagNameField,
  color: tagColorField,
  kanban: z.boolean(),
});
export type TagFormValues = z.input<typeof tagFormSchema>;
export type TagFormOutput = z.output<typeof tagFormSchema>;

export const tagFormResolver = zodResolver(tagFormSchema);

export function initialTagValues(tag: TagDTO | null): TagFormValues {
  return { name: tag?.name ?? "", color: tag?.color ?? DEFAULT_TAG_COLOR, kanban: tag?.kanban === 1 };
}

/** The kanban flag is sent only by who may switch it; the server refuses a change from anyone else. */
export function toTagPayload(values: TagFormOutput, canSwitchKanban: boolean): TagPayload {
  const payload: TagPayload = { name: values.name, color: values.color };
  if (canSwitchKanban) payload.kanban = values.kanban ? 1 : 0;
  return payload;
}

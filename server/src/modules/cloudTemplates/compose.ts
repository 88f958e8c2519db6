import {
  type CloudTemplateDTO,
  type CloudTemplateSend,
  TEMPLATE_MEDIA_HEADERS,
  type TemplateSendInput,
  fillTemplate,
} from "@atende/contracts";
import { AppError } from "../../http/errors.js";

/**
 * A template send checked against the approved template: the header's values or its file, the
 * body's values (named in a NAMED template), the buttons' values; answers what the Cloud API gets and
 * the text the ticket shows. Anything that does not fit the template is ERR_WAPP_TEMPLATE_PARAMS,
 * refused before a message is queued (Meta would refuse it with 132000 after).
 */
export function composeTemplateSend(
  template: CloudTemplateDTO,
  input: TemplateSendInput,
): { send: CloudTemplateSend; text: string } {
  const misfit = () => new AppError("ERR_WAPP_TEMPLATE_PARAMS");
  const named = template.parameterFormat === "NAMED";
  const mediaHeader = (TEMPLATE_MEDIA_HEADERS as readonly string[]).includes(template.headerFormat ?? "");
  if (input.header.length !== template.headerVariables || input.body.length !== template.bodyVariables)
    throw misfit();
  if (mediaHeader !== Boolean(input.headerMedia)) throw misfit();
  const buttons: NonNullable<CloudTemplateSend["buttons"]> = [];
  for (const given of input.buttons) {
    const button = template.buttons.find((b) => b.index === given.index);
    const type = button?.type === "URL" ? "url" : button?.type === "QUICK_REPLY" ? "quick_reply" : null;
    if (!button || !type || (type === "url" && button.variables === 0)) throw misfit();
    if (buttons.some((b) => b.index === given.index)) throw misfit();
    buttons.push({ index: given.index, type, value: given.value });
  }
  // A URL that ends in {{1}} cannot go without its value.
  if (template.buttons.some((b) => b.variables > 0 && !buttons.some((g) => g.index === b.index)))
    throw misfit();
  const media = input.headerMedia;
  const send: CloudTemplateSend = {
    name: template.name,
    language: template.language,
    ...(input.header.length ? { header: input.header } : {}),
    ...(input.body.length ? { body: input.body } : {}),
    ...(named && input.header.length ? { headerNames: template.headerParams } : {}),
    ...(named && input.body.length ? { bodyNames: template.bodyParams } : {}),
    ...(media
      ? {
          headerMedia: {
            type: template.headerFormat!.toLowerCase() as "image" | "video" | "document",
            ...(media.id ? { id: media.id } : { link: media.link }),
            ...(media.filename ? { filename: media.filename } : {}),
          },
        }
      : {}),
    ...(buttons.length ? { buttons: buttons.sort((a, b) => a.index - b.index) } : {}),
  };
  return { send, text: templateText(template, send) };
}

/** The template's text as the customer reads it, its values filled (a media header shows as its link or file name). */
export function templateText(template: CloudTemplateDTO, send: CloudTemplateSend): string {
  const names = (list: string[]) => (template.parameterFormat === "NAMED" ? list : undefined);
  const media = send.headerMedia;
  const header = media
    ? `[${media.type}${media.filename ? `: ${media.filename}` : media.link ? `: ${media.link}` : ""}]`
    : template.header && fillTemplate(template.header, send.header ?? [], names(template.headerParams));
  return [header, fillTemplate(template.body, send.body ?? [], names(template.bodyParams)), template.footer]
    .filter(Boolean)
    .join("\n\n");
}

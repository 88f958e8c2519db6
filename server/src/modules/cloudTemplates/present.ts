import { type CloudTemplateDTO, TEMPLATE_HEADER_FORMATS, templateParams } from "@atende/contracts";
import type { GraphTemplate } from "../../channels/cloud/graph.js";

type Component = NonNullable<GraphTemplate["components"]>[number];

/** A stored template (Graph's listing of it) as the composer shows it: its texts, variables and buttons. */
export function presentTemplate(template: {
  name: string;
  language: string;
  category: string;
  parameterFormat: string | null;
  components: unknown[];
}): CloudTemplateDTO {
  const components = template.components as Component[];
  const part = (type: string) => components.find((c) => c.type?.toUpperCase() === type);
  const named = template.parameterFormat?.toUpperCase() === "NAMED";
  // {{1}}, {{2}} go by number whatever their order in the text; {{names}} in the order they appear.
  const params = (text: string | null | undefined) => {
    const found = templateParams(text);
    return named ? found : found.filter((p) => /^\d+$/.test(p)).sort((a, b) => Number(a) - Number(b));
  };
  const header = part("HEADER");
  const format = (header?.format ?? "TEXT").toUpperCase();
  const headerFormat = header
    ? (TEMPLATE_HEADER_FORMATS as readonly string[]).includes(format)
      ? (format as CloudTemplateDTO["headerFormat"])
      : null
    : null;
  const headerText = headerFormat === "TEXT" ? (header?.text ?? null) : null;
  const body = part("BODY")?.text ?? "";
  const headerParams = params(headerText);
  const bodyParams = params(body);
  const buttons = (part("BUTTONS")?.buttons ?? []).map((button, index) => {
    const type = button.type.toUpperCase();
    return {
      index,
      type,
      text: button.text ?? "",
      url: button.url ?? null,
      variables: type === "URL" && /\{\{\s*[A-Za-z0-9_]+\s*\}\}/.test(button.url ?? "") ? 1 : 0,
    };
  });
  return {
    name: template.name,
    language: template.language,
    category: template.category,
    parameterFormat: named ? "NAMED" : "POSITIONAL",
    headerFormat,
    header: headerText,
    body,
    footer: part("FOOTER")?.text ?? null,
    headerVariables: headerParams.length,
    bodyVariables: bodyParams.length,
    headerParams,
    bodyParams,
    buttons,
  };
}

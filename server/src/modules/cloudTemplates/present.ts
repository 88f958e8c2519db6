import { type CloudTemplateDTO, templateVariableCount } from "@atende/contracts";
import type { GraphTemplate } from "../../channels/cloud/graph.js";

/** An approved template as the composer shows it; null for one it cannot fill (media headers aside). */
export function presentTemplate(template: GraphTemplate): CloudTemplateDTO {
  const part = (type: string) => template.components?.find((c) => c.type.toUpperCase() === type);
  const header = part("HEADER");
  const headerText =
    header && (header.format ?? "TEXT").toUpperCase() === "TEXT" ? (header.text ?? null) : null;
  const body = part("BODY")?.text ?? "";
  return {
    name: template.name,
    language: template.language,
    category: template.category ?? "",
    header: headerText,
    body,
    footer: part("FOOTER")?.text ?? null,
    headerVariables: templateVariableCount(headerText),
    bodyVariables: templateVariableCount(body),
  };
}

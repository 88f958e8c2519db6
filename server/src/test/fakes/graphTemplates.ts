import type { FakeTemplate, ProgrammedFailure } from "./graph.js";

/** The fake Graph's check of a template send against the templates it knows, as Meta checks it. */

type SentParameter = {
  type?: string;
  text?: string;
  parameter_name?: string;
  payload?: string;
  [media: string]: unknown;
};
type SentComponent = { type?: string; sub_type?: string; index?: string; parameters?: SentParameter[] };

/**
 * Why Graph would refuse this template send, as Meta checks it: the template must exist in that
 * language (132001); the header's file must match a media header's format, a text header and the
 * body take exactly their variables (named ones by `parameter_name` in a NAMED template), a URL
 * button's {{1}} its text and a quick reply its payload, by index (132000). Null when it fits, or
 * when the fake knows no templates at all.
 */
export function templateRefusal(json: unknown, known: FakeTemplate[]): ProgrammedFailure | null {
  const message = (json ?? {}) as {
    type?: string;
    template?: { name?: string; language?: { code?: string }; components?: SentComponent[] };
  };
  if (message.type !== "template" || known.length === 0) return null;
  const sent = message.template ?? {};
  const template = known.find((t) => t.name === sent.name && t.language === sent.language?.code);
  if (!template || template.status !== "APPROVED") return { code: 132001 };
  const misfit = { code: 132000 };
  const components = sent.components ?? [];
  const part = (type: string) => template.components.find((c) => c.type === type);
  const sentPart = (type: string) => components.filter((c) => c.type === type);
  const named = template.parameter_format === "NAMED";
  const variables = (text?: string) => [
    ...new Set([...(text ?? "").matchAll(/\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g)].map((m) => m[1]!)),
  ];
  const textFits = (params: SentParameter[] | undefined, text?: string) => {
    const wanted = variables(text);
    const given = params ?? [];
    if (given.length !== wanted.length || given.some((p) => p.type !== "text" || !p.text)) return false;
    return !named || given.every((p) => p.parameter_name && wanted.includes(p.parameter_name));
  };
  const header = part("HEADER");
  const [sentHeader, ...moreHeaders] = sentPart("header");
  if (moreHeaders.length) return misfit;
  const format = header?.format ?? "TEXT";
  if (header && format !== "TEXT") {
    const media = format.toLowerCase();
    const [param, ...rest] = sentHeader?.parameters ?? [];
    const file = param?.[media] as { id?: string; link?: string } | undefined;
    if (rest.length || param?.type !== media || !file || Boolean(file.id) === Boolean(file.link))
      return misfit;
  } else if (
    !textFits(sentHeader?.parameters, header?.text) &&
    (sentHeader || variables(header?.text).length)
  )
    return misfit;
  const [sentBody, ...moreBodies] = sentPart("body");
  if (
    moreBodies.length ||
    (!textFits(sentBody?.parameters, part("BODY")?.text) &&
      (sentBody || variables(part("BODY")?.text).length))
  )
    return misfit;
  const buttons = part("BUTTONS")?.buttons ?? [];
  for (const sentButton of sentPart("button")) {
    const button = buttons[Number(sentButton.index)];
    const [param, ...rest] = sentButton.parameters ?? [];
    if (!button || rest.length || !param) return misfit;
    if (sentButton.sub_type === "url" && (button.type !== "URL" || param.type !== "text" || !param.text))
      return misfit;
    if (
      sentButton.sub_type === "quick_reply" &&
      (button.type !== "QUICK_REPLY" || param.type !== "payload" || !param.payload)
    )
      return misfit;
    if (sentButton.sub_type !== "url" && sentButton.sub_type !== "quick_reply") return misfit;
  }
  const dynamicUrls = buttons.flatMap((b, i) => (b.type === "URL" && variables(b.url).length ? [i] : []));
  if (dynamicUrls.some((i) => !sentPart("button").some((b) => b.sub_type === "url" && Number(b.index) === i)))
    return misfit;
  return null;
}

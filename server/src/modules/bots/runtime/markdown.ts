/**
 * Typebot's text bubbles in `textBubbleContentFormat: "markdown"` into WhatsApp's formatting:
 * bold `**a**`/`__a__` → `*a*`, italic `*a*`/`_a_` → `_a_`, strike `~~a~~` → `~a~`. WhatsApp has no
 * underline: `<u>a</u>` is plain text, never strike. Links keep their address; escaped characters
 * (`\*`) stay literal and never format.
 */
export function markdownToWhatsapp(markdown: string): string {
  const escaped: string[] = [];
  // Placeholders from Unicode's private use area: no bot text carries them.
  const BOLD = "\uE000";
  let s = markdown.replace(/\\([\\`*_{}[\]()#+\-.!~<>|])/g, (_m, ch: string) => {
    escaped.push(ch);
    return `\uE001${escaped.length - 1}\uE002`;
  });
  s = s.replace(/<u>([\s\S]*?)<\/u>/gi, "$1");
  s = s.replace(/\*\*\*(?=\S)([\s\S]*?\S)\*\*\*/g, `${BOLD}_$1_${BOLD}`);
  s = s.replace(/\*\*(?=\S)([\s\S]*?\S)\*\*/g, `${BOLD}$1${BOLD}`);
  s = s.replace(/__(?=\S)([\s\S]*?\S)__/g, `${BOLD}$1${BOLD}`);
  s = s.replace(/(^|[^\w*])\*(?=\S)([^*\n]*?\S)\*(?![\w*])/g, "$1_$2_");
  s = s.replace(/~~(?=\S)([\s\S]*?\S)~~/g, "~$1~");
  s = s.replace(/^#{1,6}\s+(.+)$/gm, `${BOLD}$1${BOLD}`);
  s = s.replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, (_m, text: string, url: string) =>
    text === url ? url : `${text} (${url})`,
  );
  s = s.replaceAll(BOLD, "*");
  return s.replace(/\uE001(\d+)\uE002/g, (_m, i: string) => escaped[Number(i)]!);
}

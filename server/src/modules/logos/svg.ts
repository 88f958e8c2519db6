/**
 * SVG logos: recognised by their text (file-type cannot sniff a text format) and rewritten so they
 * cannot run script. Every logo is also served with `Content-Security-Policy: ... sandbox` (see
 * routes.ts): this is the first of two locks, not the only one.
 *
 * A small XML tokenizer, not a regex over the whole text: tags are parsed into names and attributes,
 * and the file is written again from what was parsed, so nothing the parser did not understand
 * reaches the output (anything malformed refuses the file). What goes:
 * - elements that run or embed documents, by local name whatever their prefix (script, foreignObject,
 *   iframe, embed, object, handler, ...), with everything inside them;
 * - `on*` attributes (event handlers);
 * - URL attributes (href, xlink:href, src, ...) and animation values (`values`, `to`, `from`, `by`)
 *   whose value, entities decoded, is a `javascript:`/`vbscript:` URL or a `data:` URL other than a
 *   raster image; animations (`set`, `animate`) that target an href;
 * - processing instructions (`<?xml-stylesheet ...?>`), comments and the DOCTYPE; a DOCTYPE declaring
 *   entities refuses the file (entities could smuggle markup past this walk).
 */

const DROPPED_ELEMENTS = new Set([
  "script",
  "foreignobject",
  "iframe",
  "frame",
  "frameset",
  "embed",
  "object",
  "applet",
  "handler",
  "listener",
  "base",
  "link",
  "meta",
]);
const ANIMATIONS = new Set(["set", "animate", "animatemotion", "animatetransform", "animatecolor"]);
const URL_ATTRIBUTES = new Set(["href", "src", "action", "formaction", "data", "values", "to", "from", "by"]);
const SAFE_DATA_URL = /^data:image\/(png|jpe?g|gif|webp);/;

interface Attribute {
  name: string;
  quote: '"' | "'";
  /** As written between the quotes (entity references not decoded). */
  raw: string;
}

interface Tag {
  kind: "start" | "end";
  name: string;
  attributes: Attribute[];
  selfClosing: boolean;
}

class Malformed extends Error {}

const NAME = /^[A-Za-z_:][-A-Za-z0-9_:.]*/;
const localName = (name: string) => name.slice(name.indexOf(":") + 1).toLowerCase();

/** An attribute value with its character and entity references decoded (as the browser reads it). */
function decoded(raw: string): string {
  return raw.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);?/gi, (whole, ref: string) => {
    if (ref[0] === "#") {
      const code = ref[1] === "x" || ref[1] === "X" ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : "";
    }
    const named: Record<string, string> = {
      amp: "&",
      lt: "<",
      gt: ">",
      quot: '"',
      apos: "'",
      colon: ":",
      tab: "\t",
      newline: "\n",
    };
    return named[ref.toLowerCase()] ?? whole;
  });
}

/** Whether a URL-like value would run script or load a document. */
function unsafeUrl(raw: string): boolean {
  // Browsers ignore whitespace and control characters inside the scheme ("java\tscript:").
  const value = [...decoded(raw)]
    .filter((c) => {
      const code = c.charCodeAt(0);
      return code > 0x20 && (code < 0x7f || code > 0xa0);
    })
    .join("")
    .toLowerCase();
  if (value.startsWith("data:")) return !SAFE_DATA_URL.test(value);
  // Anywhere in the value: an animation's `values` lists several URLs separated by ';'.
  return /(javascript|vbscript|livescript):/.test(value);
}

function keepAttribute(attribute: Attribute): boolean {
  const name = localName(attribute.name);
  if (name.startsWith("on")) return false;
  return !(URL_ATTRIBUTES.has(name) && unsafeUrl(attribute.raw));
}

/** Whether the element goes with all it holds: one that runs or embeds, or an animation of an href or a handler (it could write a javascript: URL after load). */
function dropsElement(tag: Tag): boolean {
  const element = localName(tag.name);
  if (DROPPED_ELEMENTS.has(element)) return true;
  if (!ANIMATIONS.has(element)) return false;
  return tag.attributes.some((a) => {
    if (localName(a.name) !== "attributename") return false;
    const target = localName(decoded(a.raw).trim().toLowerCase());
    return target === "href" || target.startsWith("on");
  });
}

/** Reads the tag starting at `at` ('<' of a start or end tag); answers it and where it ends. */
function readTag(text: string, at: number): { tag: Tag; end: number } {
  let i = at + 1;
  const kind = text[i] === "/" ? "end" : "start";
  if (kind === "end") i++;
  const nameMatch = NAME.exec(text.slice(i, i + 256));
  if (!nameMatch) throw new Malformed();
  const name = nameMatch[0];
  i += name.length;
  const attributes: Attribute[] = [];
  for (;;) {
    const spaceStart = i;
    while (i < text.length && /\s/.test(text[i]!)) i++;
    if (i >= text.length) throw new Malformed();
    if (text[i] === ">") return { tag: { kind, name, attributes, selfClosing: false }, end: i + 1 };
    if (text[i] === "/" && text[i + 1] === ">" && kind === "start")
      return { tag: { kind, name, attributes, selfClosing: true }, end: i + 2 };
    if (kind === "end" || i === spaceStart) throw new Malformed();
    const attrMatch = NAME.exec(text.slice(i, i + 256));
    if (!attrMatch) throw new Malformed();
    i += attrMatch[0].length;
    while (/\s/.test(text[i] ?? "")) i++;
    if (text[i] !== "=") throw new Malformed();
    i++;
    while (/\s/.test(text[i] ?? "")) i++;
    const quote = text[i];
    if (quote !== '"' && quote !== "'") throw new Malformed();
    const close = text.indexOf(quote, i + 1);
    if (close < 0) throw new Malformed();
    const raw = text.slice(i + 1, close);
    if (raw.includes("<")) throw new Malformed();
    attributes.push({ name: attrMatch[0], quote, raw });
    i = close + 1;
  }
}

function writeTag(tag: Tag): string {
  if (tag.kind === "end") return `</${tag.name}>`;
  const attributes = tag.attributes
    .filter(keepAttribute)
    .map((a) => ` ${a.name}=${a.quote}${a.raw}${a.quote}`)
    .join("");
  return `<${tag.name}${attributes}${tag.selfClosing ? "/>" : ">"}`;
}

/** Skips a DOCTYPE (with its internal subset); refuses one that declares entities. */
function skipDoctype(text: string, at: number): number {
  let i = at;
  let inSubset = false;
  while (i < text.length) {
    const c = text[i];
    if (c === "[") inSubset = true;
    else if (c === "]") inSubset = false;
    else if (c === ">" && !inSubset) break;
    i++;
  }
  if (i >= text.length) throw new Malformed();
  if (/<!ENTITY/i.test(text.slice(at, i))) throw new Malformed();
  return i + 1;
}

/**
 * The SVG in `data` rewritten without what could run script; null when it is not an SVG document
 * (its first element is not `svg`, or it is not well-formed enough to be read).
 */
export function sanitizeSvg(data: Buffer): Buffer | null {
  let text = data.toString("utf8");
  if (text.includes("\uFFFD") || text.includes("\u0000")) return null; // not UTF-8 text
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  try {
    return Buffer.from(rewrite(text), "utf8");
  } catch (err) {
    if (err instanceof Malformed) return null;
    throw err;
  }
}

function rewrite(text: string): string {
  const out: string[] = [];
  let i = 0;
  let rootSeen = false;
  const open: string[] = []; // elements open in the output
  let dropping = 0; // depth inside a dropped element
  while (i < text.length) {
    const lt = text.indexOf("<", i);
    const chunk = text.slice(i, lt < 0 ? text.length : lt);
    if (chunk) {
      if (!rootSeen || open.length === 0) {
        if (chunk.trim()) throw new Malformed(); // text outside the root element
      } else if (!dropping) out.push(chunk);
    }
    if (lt < 0) break;
    i = lt;
    if (text.startsWith("<!--", i)) {
      const end = text.indexOf("-->", i + 4);
      if (end < 0) throw new Malformed();
      i = end + 3;
    } else if (text.startsWith("<![CDATA[", i)) {
      const end = text.indexOf("]]>", i + 9);
      if (end < 0 || open.length === 0) throw new Malformed();
      if (!dropping) out.push(text.slice(i, end + 3));
      i = end + 3;
    } else if (text.startsWith("<?", i)) {
      const end = text.indexOf("?>", i + 2);
      if (end < 0) throw new Malformed();
      i = end + 2;
    } else if (text.startsWith("<!", i)) {
      if (rootSeen || !/^<!DOCTYPE\s/i.test(text.slice(i, i + 10))) throw new Malformed();
      i = skipDoctype(text, i);
    } else {
      const { tag, end } = readTag(text, i);
      i = end;
      const element = localName(tag.name);
      if (tag.kind === "start") {
        if (!rootSeen) {
          if (element !== "svg") throw new Malformed();
          rootSeen = true;
        } else if (open.length === 0) throw new Malformed(); // a second root
        if (dropping || dropsElement(tag)) {
          if (!tag.selfClosing) dropping++;
          continue;
        }
        out.push(writeTag(tag));
        if (!tag.selfClosing) open.push(tag.name);
      } else if (dropping) {
        dropping--;
      } else {
        if (open.pop() !== tag.name) throw new Malformed();
        out.push(writeTag(tag));
      }
    }
  }
  if (!rootSeen || open.length !== 0 || dropping !== 0) throw new Malformed();
  return out.join("");
}

import createDOMPurify, { type DOMPurify } from "dompurify";
import type { DOMWindow } from "jsdom";

/**
 * SVG logos: recognised by their text (file-type cannot sniff a text format) and cleaned by
 * DOMPurify with its SVG profile, on a jsdom window made once, on the first SVG. Every logo is also
 * served with `Content-Security-Policy: ... sandbox` (see routes.ts): this is the first of two
 * locks, not the only one.
 *
 * The file is read by an XML parser (anything not well-formed, or whose root is not `svg`, is
 * refused), DOMPurify cleans the tree, and the file is written again from what is left, as XML, the
 * way a browser reads it back. On top of the SVG profile, a logo refers to nothing outside itself:
 * an href or src is a `#fragment` or a raster `data:` image, a `url()` in an attribute or a `<style>`
 * names a `#fragment`, and CSS that could load something some other way (`@import`, `image-set()`,
 * escapes) is dropped.
 */

const SVG_NS = "http://www.w3.org/2000/svg";
const XLINK_NS = "http://www.w3.org/1999/xlink";
const XML_NS = "http://www.w3.org/XML/1998/namespace";
const XMLNS_NS = "http://www.w3.org/2000/xmlns/";
const SAFE_DATA_URL = /^data:image\/(png|jpe?g|gif|webp)[;,]/i;

interface Svg {
  purify: DOMPurify;
  window: DOMWindow;
}

let made: Promise<Svg> | null = null;

/** The jsdom window and its DOMPurify, made on first use (jsdom takes a moment to load). */
function svgTools(): Promise<Svg> {
  made ??= import("jsdom").then(({ JSDOM }) => {
    const { window } = new JSDOM("");
    const purify = createDOMPurify(window as unknown as Parameters<typeof createDOMPurify>[0]);
    purify.addHook("uponSanitizeAttribute", (_node, event) => {
      const name = event.attrName.slice(event.attrName.indexOf(":") + 1);
      if (name === "href" || name === "src") event.keepAttr = localReference(event.attrValue);
      else if (/url|\\|image|@import/i.test(event.attrValue)) event.keepAttr = safeCss(event.attrValue);
    });
    purify.addHook("uponSanitizeElement", (node, event) => {
      if (event.tagName === "style" && !safeCss(node.textContent ?? "")) node.textContent = "";
    });
    return { purify, window };
  });
  return made;
}

/** Whitespace and control characters are ignored inside a URL ("java\tscript:"). */
const squeezed = (value: string) =>
  [...value]
    .filter((c) => c.charCodeAt(0) > 0x20 && (c.charCodeAt(0) < 0x7f || c.charCodeAt(0) > 0xa0))
    .join("");

/** An href or src that stays inside the logo: a fragment, or a raster image written into it. */
function localReference(value: string): boolean {
  const url = squeezed(value);
  return url.startsWith("#") || SAFE_DATA_URL.test(url);
}

const CSS_URL = /url\s*\(\s*(['"]?)([^'")]*)\1\s*\)/gi;

/** CSS (a style attribute, a presentation attribute, a `<style>`) that loads nothing from outside. */
function safeCss(css: string): boolean {
  // Escapes could spell url( or @import past the checks below; a logo needs none.
  if (/\\|@import|image-set\s*\(|image\s*\(|cross-fade\s*\(|element\s*\(/i.test(css)) return false;
  const urls = [...css.matchAll(CSS_URL)];
  // A url( the pattern did not read whole is not trusted.
  if (urls.length !== (css.match(/url\s*\(/gi)?.length ?? 0)) return false;
  return urls.every((m) => squeezed(m[2]!).startsWith("#"));
}

/**
 * The parsed document's elements, text and attributes, copied into `doc` without prefixes: an
 * element with no namespace is taken as SVG (the file says `<svg>` without xmlns), `svg:circle` is
 * written `circle`. Comments, processing instructions and attributes of other vocabularies
 * (editors' metadata) are left behind. DOMPurify then judges every element by its plain name.
 */
function copyTree(root: Element, doc: Document): Element {
  let xlink = false;
  const copy = (node: Element): Element => {
    const out = doc.createElementNS(node.namespaceURI ?? SVG_NS, node.localName);
    for (const attr of Array.from(node.attributes)) {
      if (attr.namespaceURI === null) out.setAttributeNS(null, attr.localName, attr.value);
      else if (attr.namespaceURI === XLINK_NS) {
        out.setAttributeNS(XLINK_NS, `xlink:${attr.localName}`, attr.value);
        xlink = true;
      } else if (attr.namespaceURI === XML_NS)
        out.setAttributeNS(XML_NS, `xml:${attr.localName}`, attr.value);
    }
    for (const child of Array.from(node.childNodes)) {
      if (child.nodeType === child.ELEMENT_NODE) out.appendChild(copy(child as Element));
      else if (child.nodeType === child.TEXT_NODE || child.nodeType === child.CDATA_SECTION_NODE)
        out.appendChild(doc.createTextNode(child.nodeValue ?? ""));
    }
    return out;
  };
  const svg = copy(root);
  // Declared once on the root, so the file is written with `xlink:href` as editors write it.
  if (xlink) svg.setAttributeNS(XMLNS_NS, "xmlns:xlink", XLINK_NS);
  return svg;
}

/**
 * The SVG in `data` cleaned of what could run script or load anything; null when it is not an SVG
 * document (not well-formed XML, or its root is not `svg`).
 */
export async function sanitizeSvg(data: Buffer): Promise<Buffer | null> {
  let text = data.toString("utf8");
  if (text.includes("\uFFFD") || text.includes("\u0000")) return null; // not UTF-8 text
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  // Entity declarations (a billion laughs) are refused before parsing: a logo needs none.
  if (/<!ENTITY/i.test(text)) return null;
  const { purify, window } = await svgTools();
  const parsed = new window.DOMParser().parseFromString(text, "image/svg+xml");
  const root = parsed.documentElement;
  if (
    !root ||
    root.getElementsByTagNameNS("*", "parsererror").length > 0 ||
    root.localName !== "svg" ||
    (root.namespaceURI !== null && root.namespaceURI !== SVG_NS)
  )
    return null;
  const clean = purify.sanitize(copyTree(root, window.document), {
    USE_PROFILES: { svg: true, svgFilters: true },
    // A logo repeats its own shapes with <use>: its href can only name a #fragment (the hook above).
    ADD_TAGS: ["use"],
    // An element taken out goes with all it holds (a <handler>'s script text, an editor's metadata).
    KEEP_CONTENT: false,
    RETURN_DOM: true,
  }) as Element;
  const svg = clean.firstElementChild;
  if (!svg || svg.localName !== "svg" || svg.namespaceURI !== SVG_NS || clean.childElementCount !== 1)
    return null;
  return Buffer.from(new window.XMLSerializer().serializeToString(svg), "utf8");
}

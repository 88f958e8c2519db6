import { useEffect } from "react";
import { useLogos } from "../api/logos";

const TYPE_BY_EXT: Record<string, string> = { png: "image/png", ico: "image/x-icon", svg: "image/svg+xml" };
const typeOf = (url: string) => TYPE_BY_EXT[/\.([a-z]+)\?/.exec(url)?.[1] ?? ""] ?? "";

/** Points a <link> of the page's head at the uploaded icon; without one, the page's own stays. */
function placeLink(id: string, rel: string, sizes: string | null, url: string | null) {
  let link = document.head.querySelector<HTMLLinkElement>(`link[data-brand="${id}"]`);
  if (!url) {
    link?.remove();
    return;
  }
  if (!link) {
    link = document.createElement("link");
    link.dataset.brand = id;
    link.rel = rel;
    if (sizes) link.setAttribute("sizes", sizes);
    document.head.appendChild(link);
  }
  link.type = typeOf(url);
  link.href = url;
}

const builtIn = new Map<string, HTMLLinkElement | null>();
/** index.html's own link of this rel (kept once found, so it can be put back). */
function builtInLink(rel: string): HTMLLinkElement | null {
  if (!builtIn.has(rel))
    builtIn.set(rel, document.head.querySelector<HTMLLinkElement>(`link[rel="${rel}"]:not([data-brand])`));
  return builtIn.get(rel) ?? null;
}

/** index.html's link steps aside while an uploaded one is set (browsers may pick either). */
function stepAside(rel: string, uploaded: string | null) {
  const own = builtInLink(rel);
  if (own && uploaded) own.remove();
  else if (own && !own.isConnected) document.head.prepend(own);
}

/**
 * The favicons (favicon, favicon-256x256, apple-touch-icon: the icon iOS puts on the home screen)
 * as the super user uploaded them, replacing index.html's built-in ones while one is set. The
 * installed app's icon comes from the manifest, which the server writes with the same upload.
 * Renders nothing.
 */
export function BrandIcons() {
  const { data } = useLogos();
  useEffect(() => {
    if (!data) return;
    stepAside("icon", data.favicon);
    stepAside("apple-touch-icon", data["apple-touch-icon"]);
    placeLink("favicon", "icon", null, data.favicon);
    placeLink("favicon-256x256", "icon", "256x256", data["favicon-256x256"]);
    placeLink("apple-touch-icon", "apple-touch-icon", null, data["apple-touch-icon"]);
  }, [data]);
  return null;
}

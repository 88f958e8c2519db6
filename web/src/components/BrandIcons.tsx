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

let builtIn: HTMLLinkElement | null | undefined;
function builtInIcon(): HTMLLinkElement | null {
  builtIn ??= document.head.querySelector<HTMLLinkElement>('link[rel="icon"]:not([data-brand])');
  return builtIn;
}

/**
 * The favicons (favicon, favicon-256x256, apple-touch-icon) as the super user uploaded them,
 * replacing index.html's built-in icon while one is set. Renders nothing.
 */
export function BrandIcons() {
  const { data } = useLogos();
  useEffect(() => {
    if (!data) return;
    // index.html's icon steps aside while an uploaded favicon is set (browsers may pick either).
    const own = builtInIcon();
    if (own && data.favicon) own.remove();
    else if (own && !own.isConnected) document.head.prepend(own);
    placeLink("favicon", "icon", null, data.favicon);
    placeLink("favicon-256x256", "icon", "256x256", data["favicon-256x256"]);
    placeLink("apple-touch-icon", "apple-touch-icon", null, data["apple-touch-icon"]);
  }, [data]);
  return null;
}

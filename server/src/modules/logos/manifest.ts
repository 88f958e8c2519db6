import type { LogosDTO } from "@atende/contracts";

/**
 * The web app manifest (GET /manifest.webmanifest): what lets Chrome and Android offer "Install app"
 * and iOS "Add to Home Screen" open as an app of its own, with its name, colours and icons. The
 * platform's uploaded 256×256 icon (Settings → Logo) is the app's icon when it is a PNG or an SVG;
 * otherwise the built-in ones (web/public/icons, made by scripts/make-icons.mjs), a maskable one
 * among them for Android's shaped icons. iOS reads its icon from the apple-touch-icon link, which the
 * app points at the uploaded one too (web/src/components/BrandIcons.tsx).
 */
export interface WebAppManifest {
  id: string;
  name: string;
  short_name: string;
  description: string;
  lang: string;
  start_url: string;
  scope: string;
  display: "standalone";
  theme_color: string;
  background_color: string;
  icons: { src: string; sizes: string; type: string; purpose: "any" | "maskable" }[];
}

/** The light theme's brand and page colours (web/src/layout/theme.ts). */
const THEME_COLOR = "#007a63";
const BACKGROUND_COLOR = "#f0f2f5";

const BUILT_IN_ICONS: WebAppManifest["icons"] = [
  { src: "/icons/icon-192.png", sizes: "192x192", type: "image/png", purpose: "any" },
  { src: "/icons/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any" },
  { src: "/icons/maskable-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
];

function uploadedIcon(url: string | null): WebAppManifest["icons"][number] | null {
  if (!url) return null;
  const ext = /\.(png|svg|ico)\?/.exec(url)?.[1];
  if (ext === "png") return { src: url, sizes: "256x256", type: "image/png", purpose: "any" };
  if (ext === "svg") return { src: url, sizes: "any", type: "image/svg+xml", purpose: "any" };
  return null; // An .ico is no install icon for Chrome.
}

export function webAppManifest(logos: LogosDTO): WebAppManifest {
  const own = uploadedIcon(logos["favicon-256x256"]);
  return {
    id: "/",
    name: "Atende",
    short_name: "Atende",
    description: "Atendimento pelo WhatsApp",
    lang: "pt-BR",
    start_url: "/",
    scope: "/",
    display: "standalone",
    theme_color: THEME_COLOR,
    background_color: BACKGROUND_COLOR,
    icons: own ? [own] : BUILT_IN_ICONS,
  };
}

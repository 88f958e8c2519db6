import { z } from "zod";

/**
 * The platform's logos (back-office spec: Settings page Logo tab, section 9 "Logo targets"): where
 * each image shows, the types a logo may be (PNG, ICO or SVG, by content) and its size limit.
 */
export const LOGO_TARGETS = [
  "signup",
  "login",
  "interno",
  "favicon",
  "favicon-256x256",
  "apple-touch-icon",
] as const;
export type LogoTarget = (typeof LOGO_TARGETS)[number];

export function isLogoTarget(value: unknown): value is LogoTarget {
  return typeof value === "string" && (LOGO_TARGETS as readonly string[]).includes(value);
}

/** The file types a logo may be, by the content's own type. */
export const LOGO_MIME_TYPES = ["image/png", "image/x-icon", "image/svg+xml"] as const;
/** What the file picker offers (the server checks the content whatever the name says). */
export const LOGO_ACCEPT = ".png,.ico,.svg,image/png,image/x-icon,image/vnd.microsoft.icon,image/svg+xml";
export const LOGO_MAX_BYTES = 2 * 1024 * 1024;

/** POST /settings/media-upload?ref={target}: the target is checked by the service (ERR_LOGO_TARGET_REQUIRED). */
export const logoUploadQuery = z.object({ ref: z.string().max(64).optional() });

/** The current logo of each target: its URL (changes with each upload), or null for the built-in one. */
export type LogosDTO = Record<LogoTarget, string | null>;

/** The upload's answer: `mensagem` as clients of this API family read it, and every current logo. */
export interface LogoUploadAnswer {
  mensagem: "Arquivo Anexado";
  ref: LogoTarget;
  url: string;
  logos: LogosDTO;
}

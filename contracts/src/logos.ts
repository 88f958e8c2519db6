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

/** A target's current logo: its URL (changes with each upload), or null for the built-in one. */
const logoUrl = z.string().nullable();

/** The current logo of each target. */
export const logosSchema = z
  .object({
    signup: logoUrl,
    login: logoUrl,
    interno: logoUrl,
    favicon: logoUrl,
    "favicon-256x256": logoUrl,
    "apple-touch-icon": logoUrl,
  } satisfies Record<LogoTarget, typeof logoUrl>)
  .meta({ id: "Logos", description: "The URL of each target's current logo, null for the built-in one" });
export type LogosDTO = z.infer<typeof logosSchema>;

/** The upload's answer: `mensagem` as clients of this API family read it, and every current logo. */
export const logoUploadAnswerSchema = z
  .object({
    mensagem: z.literal("Arquivo Anexado"),
    ref: z.enum(LOGO_TARGETS),
    url: z.string(),
    logos: logosSchema,
  })
  .meta({
    id: "LogoUploadAnswer",
    description: "A logo uploaded: its target, its URL and every current logo",
  });
export type LogoUploadAnswer = z.infer<typeof logoUploadAnswerSchema>;

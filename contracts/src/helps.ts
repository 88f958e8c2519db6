import { z } from "zod";
import { pageOf, rowId, timestamp } from "./answers.js";
import { noNul, sizedText } from "./validation.js";

/**
 * A help video (back-office sections 2 and 3), as GET /helps, GET /helps/list and the writes answer
 * it. Helps belong to the platform, not to a company: the super user writes them, every signed-in
 * user of every company reads the same list.
 */
export const helpSchema = z
  .object({
    id: rowId,
    title: z.string(),
    description: z.string(),
    /** The YouTube video id (11 characters): the web builds the thumbnail and the player from it. */
    video: z.string(),
    /** An optional page to read more (http or https). */
    link: z.string().nullable(),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: "Help", description: "A help video of the platform, the same for every company" });
export type HelpDTO = z.infer<typeof helpSchema>;

/** GET /helps: a page of the Ajuda tab's table, as clients of this API family read it. */
export const helpsPageSchema = pageOf("records", helpSchema).meta({
  id: "HelpsPage",
  description: "A page of the platform's help videos",
});
export type HelpsPage = z.infer<typeof helpsPageSchema>;

export const HELP_TITLE = { min: 1, max: 200 } as const;
export const HELP_DESCRIPTION_MAX = 2000;
export const HELP_LINK_MAX = 2048;

/** A YouTube video id: 11 characters of the URL-safe base64 alphabet. */
const YOUTUBE_ID = /^[A-Za-z0-9_-]{11}$/;
const YOUTUBE_HOSTS = new Set([
  "youtube.com",
  "www.youtube.com",
  "m.youtube.com",
  "music.youtube.com",
  "youtube-nocookie.com",
  "www.youtube-nocookie.com",
  "youtu.be",
]);

/**
 * The video id a super user pastes into the Ajuda tab: the id itself ("dQw4w9WgXcQ"), or a YouTube
 * address holding it (watch?v=, youtu.be/, /embed/, /shorts/, /live/, /v/; with or without the
 * scheme). Anything else is null. Only the id is stored, so the web builds the thumbnail and the
 * player's URL itself and never embeds an address someone typed.
 */
export function youtubeVideoId(input: string): string | null {
  const text = input.trim();
  if (YOUTUBE_ID.test(text)) return text;
  // scheme?, host, path, query: by hand, as contracts compile without the DOM or Node types of URL.
  const m = /^(?:https?:\/\/)?([^/?#\s]+)(\/[^?#\s]*)?(?:\?([^#\s]*))?(?:#\S*)?$/i.exec(text);
  if (!m) return null;
  const host = m[1]!.toLowerCase();
  if (!YOUTUBE_HOSTS.has(host)) return null;
  const parts = (m[2] ?? "").split("/").filter(Boolean);
  const param = (name: string) =>
    (m[3] ?? "")
      .split("&")
      .find((pair) => pair.startsWith(`${name}=`))
      ?.slice(name.length + 1);
  const id =
    host === "youtu.be"
      ? parts.length === 1
        ? parts[0]
        : undefined
      : parts.length === 1 && parts[0] === "watch"
        ? param("v")
        : parts.length === 2 && ["embed", "shorts", "live", "v"].includes(parts[0]!)
          ? parts[1]
          : undefined;
  return id !== undefined && YOUTUBE_ID.test(id) ? id : null;
}

/** The video field: required; a YouTube id or address, stored as the id alone. */
export const helpVideoField = z
  .string({ error: "validation.required" })
  .trim()
  .min(1, { error: "validation.required", abort: true })
  .max(HELP_LINK_MAX, "validation.tooLong")
  .transform((v, ctx) => {
    const id = youtubeVideoId(v);
    if (id === null) {
      ctx.addIssue({ code: "custom", message: "validation.invalidYoutubeVideo" });
      return z.NEVER;
    }
    return id;
  });

export const helpTitleField = sizedText(HELP_TITLE.min, HELP_TITLE.max);

/** Free text; absent or null: empty. */
export const helpDescriptionField = z
  .string("validation.invalid")
  .trim()
  .max(HELP_DESCRIPTION_MAX, "validation.tooLong")
  .refine(noNul, "validation.invalid")
  .nullish()
  .transform((v) => v ?? "");

/** An http(s) address, or nothing: empty and null clear it. Other schemes (javascript:...) are refused. */
export const helpLinkField = z
  .string("validation.invalid")
  .trim()
  .max(HELP_LINK_MAX, "validation.tooLong")
  // A scheme, a host, then anything without spaces or control characters.
  .refine((v) => v === "" || /^https?:\/\/[^\s/?#]+[^\s\p{Cc}]*$/iu.test(v), "validation.invalidUrl")
  .nullish()
  .transform((v) => (v ? v : null));

/** POST /helps (the super user's Ajuda tab). */
export const helpCreateSchema = z.object({
  title: helpTitleField,
  video: helpVideoField,
  description: helpDescriptionField,
  link: helpLinkField,
});
export type HelpCreateInput = z.infer<typeof helpCreateSchema>;

/** PUT /helps/{id}: the same form; a field left out keeps its value (the title and video stay required when sent). */
export const helpUpdateSchema = z.object({
  title: helpTitleField.optional(),
  video: helpVideoField.optional(),
  description: helpDescriptionField.optional(),
  link: helpLinkField.optional(),
});
export type HelpUpdateInput = z.infer<typeof helpUpdateSchema>;

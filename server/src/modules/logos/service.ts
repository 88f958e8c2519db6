import crypto from "node:crypto";
import { fileTypeFromBuffer } from "file-type";
import {
  LOGO_TARGETS,
  type LogoTarget,
  type LogoUploadAnswer,
  type LogosDTO,
  isLogoTarget,
} from "@atende/contracts";
import type { Deps } from "../../deps.js";
import { inTransaction } from "../../events/bus.js";
import { type AuthContext, requireSuper } from "../../http/auth.js";
import { AppError } from "../../http/errors.js";
import type { UploadedFile } from "../../http/upload.js";
import { lockCompany } from "../plans/queries.js";
import { logoFileOf, platformCompanyId, saveLogoFile } from "./queries.js";
import { sanitizeSvg } from "./svg.js";
import { buffer } from "node:stream/consumers";

export type LogoExt = "png" | "ico" | "svg";

export const LOGO_CONTENT_TYPES: Record<LogoExt, string> = {
  png: "image/png",
  ico: "image/x-icon",
  svg: "image/svg+xml",
};

/** A stored logo's file name: "{target}-{uuid}.{ext}", never built from what the client sent. */
const STORED_NAME =
  /^([a-z0-9-]+)-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.(png|ico|svg)$/;

export interface LogoFile {
  data: Buffer;
  ext: LogoExt;
  /** Changes with every upload: the URLs' cache-buster and the answer's ETag. */
  version: string;
}

/** The URL a stored file is read at (GET /public/logotipos/{target}.{ext}?v={version}). */
export function logoUrl(target: LogoTarget, stored: string | undefined): string | null {
  const m = stored ? STORED_NAME.exec(stored) : null;
  return m ? `/public/logotipos/${target}.${m[3]}?v=${m[2]}` : null;
}

/**
 * The file's own type, by content: PNG and ICO by their bytes, SVG by its text (cleaned of anything
 * that could run script or load something). Anything else, whatever its name or declared type, is
 * refused.
 */
async function logoContent(data: Buffer): Promise<{ data: Buffer; ext: LogoExt } | null> {
  const sniffed = await fileTypeFromBuffer(data);
  if (sniffed?.mime === "image/png" || sniffed?.mime === "image/apng") return { data, ext: "png" };
  if (sniffed?.ext === "ico") return { data, ext: "ico" };
  // An SVG is text: file-type knows no type for it, or calls it XML.
  if (sniffed && sniffed.ext !== "xml") return null;
  const svg = await sanitizeSvg(data);
  return svg ? { data: svg, ext: "svg" } : null;
}

export type LogosDeps = Pick<Deps, "db" | "bus" | "media" | "now">;

export function createLogosService({ db, bus, media, now }: LogosDeps) {
  // Beside the companies' media, in the same store (every instance reads them from a bucket).
  const blobs = media.blobs;
  const keyOf = (name: string) => `logos/${name}`;

  async function current(): Promise<LogosDTO> {
    const out = {} as LogosDTO;
    for (const target of LOGO_TARGETS) out[target] = logoUrl(target, await logoFileOf(db, target));
    return out;
  }

  return {
    current,

    /**
     * POST /settings/media-upload?ref={target}: the super user's new logo for one target. The old
     * file is removed once the new one is the target's (a failed upload leaves the old one in place).
     */
    async upload(
      actor: AuthContext,
      ref: string | undefined,
      readFile: () => Promise<UploadedFile>,
    ): Promise<LogoUploadAnswer> {
      requireSuper(actor);
      if (!isLogoTarget(ref)) throw new AppError("ERR_LOGO_TARGET_REQUIRED");
      const target = ref;
      const file = await readFile().catch((err: unknown) => {
        if (err instanceof AppError && err.code === "ERR_VALIDATION")
          throw new AppError("ERR_LOGO_FILE_REQUIRED");
        throw err;
      });
      const content = await logoContent(file.data);
      if (!content) throw new AppError("ERR_LOGO_INVALID_TYPE");

      const name = `${target}-${crypto.randomUUID()}.${content.ext}`;
      await blobs.put(keyOf(name), content.data);
      let old: string | undefined;
      try {
        // Under the platform company's row lock: two uploads for one target cannot both take the
        // same old file as theirs to remove (and leave the other's new file orphaned or removed).
        old = await inTransaction(db, bus, async (tx) => {
          const platformId = await platformCompanyId(tx);
          if (platformId === null) throw new AppError("ERR_NO_PERMISSION");
          await lockCompany(tx, platformId);
          const previous = await logoFileOf(tx, target);
          await saveLogoFile(tx, platformId, target, name, now());
          return previous;
        });
      } catch (err) {
        await blobs.remove(keyOf(name));
        throw err;
      }
      if (old && old !== name && STORED_NAME.test(old)) await blobs.remove(keyOf(old));
      return {
        mensagem: "Arquivo Anexado",
        ref: target,
        url: logoUrl(target, name)!,
        logos: await current(),
      };
    },

    /** The target's current logo file, or null when none was uploaded (or its file is gone). */
    async file(target: LogoTarget): Promise<LogoFile | null> {
      const stored = await logoFileOf(db, target);
      const m = stored ? STORED_NAME.exec(stored) : null;
      if (!m || m[1] !== target) return null;
      const found = await blobs.get(keyOf(stored!));
      const data = found ? await buffer(found.stream) : null;
      return data ? { data, ext: m[3] as LogoExt, version: m[2]! } : null;
    },
  };
}

export type LogosService = ReturnType<typeof createLogosService>;

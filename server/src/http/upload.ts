import type { FastifyRequest } from "fastify";
import { z } from "zod";
import { validationMessage } from "@atende/contracts";
import { AppError, langOf } from "./errors.js";

/** The media-upload form, for the API document (readSingleUpload reads it). */
export const uploadForm = z.object({ file: z.string().meta({ format: "binary" }) });

export interface UploadedFile {
  filename: string;
  mimetype: string;
  data: Buffer;
}

/**
 * The one file of a media-upload form (field "file", as clients of this API family send it; any
 * file field is taken, other fields are ignored). A missing, empty or malformed file is bad input
 * with a field message in the caller's language; a file over the limit is ERR_MEDIA_TOO_LARGE.
 * Needs @fastify/multipart registered with `throwFileSizeLimit` in the route's scope.
 */
export async function readSingleUpload(req: FastifyRequest): Promise<UploadedFile> {
  const invalid = (key: "validation.required" | "validation.invalid") =>
    new AppError("ERR_VALIDATION", { fields: { file: validationMessage(key, langOf(req)) } });
  if (!req.isMultipart()) throw invalid("validation.required");
  let file: UploadedFile | null = null;
  try {
    for await (const part of req.parts()) {
      if (part.type !== "file") continue;
      if (file) {
        part.file.resume(); // drain what we ignore, or the request never ends
        continue;
      }
      file = { filename: part.filename || "arquivo", mimetype: part.mimetype, data: await part.toBuffer() };
    }
  } catch (err) {
    if ((err as { code?: string }).code === "FST_REQ_FILE_TOO_LARGE")
      throw new AppError("ERR_MEDIA_TOO_LARGE");
    throw invalid("validation.invalid");
  }
  if (!file) throw invalid("validation.required");
  if (file.data.length === 0) throw invalid("validation.invalid");
  return file;
}

/**
 * A multipart send (a message with attachments): the files under "medias" and the text fields as
 * they came. A malformed or cut-short body (no boundary, unexpected end, too many parts) or an
 * empty file is bad input on "medias" in the caller's language; a file over the limit is
 * ERR_MEDIA_TOO_LARGE. Needs @fastify/multipart registered with `throwFileSizeLimit`.
 */
export async function readMediaForm(
  req: FastifyRequest,
): Promise<{ files: UploadedFile[]; fields: Record<string, string> }> {
  const invalid = () =>
    new AppError("ERR_VALIDATION", {
      fields: { medias: validationMessage("validation.invalid", langOf(req)) },
    });
  const files: UploadedFile[] = [];
  const fields: Record<string, string> = {};
  try {
    for await (const part of req.parts()) {
      if (part.type === "file") {
        if (part.fieldname !== "medias") {
          part.file.resume(); // drain what we ignore, or the request never ends
          continue;
        }
        files.push({
          filename: part.filename || "file",
          mimetype: part.mimetype,
          data: await part.toBuffer(),
        });
      } else {
        fields[part.fieldname] = String(part.value);
      }
    }
  } catch (err) {
    if ((err as { code?: string }).code === "FST_REQ_FILE_TOO_LARGE")
      throw new AppError("ERR_MEDIA_TOO_LARGE");
    if (err instanceof AppError) throw err;
    throw invalid();
  }
  if (files.some((f) => f.data.length === 0)) throw invalid();
  return { files, fields };
}

import type { Readable } from "node:stream";
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
 * The one file of an upload form (as readSingleUpload), handed to `save` as a stream as it
 * arrives, so a large file is never held in memory: `save` writes it somewhere and answers what it
 * stored. A file over the limit is ERR_MEDIA_TOO_LARGE and an empty one bad input; in both cases
 * `discard` is called with what `save` answered. Other files are drained.
 */
/** How a service receives a streamed upload without knowing the request (see streamSingleUpload). */
export type ReceiveUpload = <T extends { size: number }>(
  save: (file: Readable, filename: string) => Promise<T>,
  discard: (saved: T) => Promise<void>,
) => Promise<{ filename: string; saved: T }>;

export async function streamSingleUpload<T extends { size: number }>(
  req: FastifyRequest,
  save: (file: Readable, filename: string) => Promise<T>,
  discard: (saved: T) => Promise<void>,
): Promise<{ filename: string; saved: T }> {
  const invalid = (key: "validation.required" | "validation.invalid") =>
    new AppError("ERR_VALIDATION", { fields: { file: validationMessage(key, langOf(req)) } });
  if (!req.isMultipart()) throw invalid("validation.required");
  let got: { filename: string; saved: T } | null = null;
  try {
    for await (const part of req.parts()) {
      if (part.type !== "file") continue;
      if (got) {
        part.file.resume(); // drain what we ignore, or the request never ends
        continue;
      }
      const filename = part.filename || "arquivo";
      const saved = await save(part.file, filename);
      got = { filename, saved };
      if (part.file.truncated) {
        await discard(saved);
        throw new AppError("ERR_MEDIA_TOO_LARGE");
      }
    }
  } catch (err) {
    if (got && !(err instanceof AppError)) await discard(got.saved);
    if (err instanceof AppError) throw err;
    if ((err as { code?: string }).code === "FST_REQ_FILE_TOO_LARGE")
      throw new AppError("ERR_MEDIA_TOO_LARGE");
    throw invalid("validation.invalid");
  }
  if (!got) throw invalid("validation.required");
  if (got.saved.size === 0) {
    await discard(got.saved);
    throw invalid("validation.invalid");
  }
  return got;
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

import multipart from "@fastify/multipart";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import {
  LOGO_MAX_BYTES,
  isLogoTarget,
  logoUploadAnswerSchema,
  logoUploadQuery,
  logosSchema,
} from "@atende/contracts";
import { sendError } from "../../http/errors.js";
import { routes } from "../../http/route.js";
import { readSingleUpload, uploadForm } from "../../http/upload.js";
import { webAppManifest } from "./manifest.js";
import { LOGO_CONTENT_TYPES, type LogosDeps, type LogosService, createLogosService } from "./service.js";

/**
 * What every logo is served with: an SVG opened on its own runs no script and loads nothing (the
 * sanitizer already removed what it could find: this is the second lock), and no type is guessed.
 */
const LOGO_HEADERS = {
  "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; sandbox",
  "x-content-type-options": "nosniff",
  "cross-origin-resource-policy": "cross-origin",
};

const logoFileParams = z.object({ file: z.string() });
const logoFileQuery = z.object({ v: z.string().optional() });

export function logosRoutes(app: FastifyInstance, logos: LogosService) {
  const r = routes(app);
  r.post(
    "/settings/media-upload",
    {
      errors: [
        "ERR_LOGO_FILE_REQUIRED",
        "ERR_LOGO_INVALID_TYPE",
        "ERR_LOGO_TARGET_REQUIRED",
        "ERR_MEDIA_TOO_LARGE",
      ],
      access: "super",
      query: logoUploadQuery,
      bodyDoc: uploadForm,
      consumes: ["multipart/form-data"],
      response: logoUploadAnswerSchema,
    },
    ({ auth, query }, req) => logos.upload(auth, query.ref, () => readSingleUpload(req)),
  );
  // The login and sign-up pages read it before anyone logs in.
  r.get("/settings/logos", { access: "public", response: logosSchema }, async (_, __, reply) => {
    reply.header("cache-control", "no-cache");
    return logos.current();
  });
  // The web app manifest: installing the app on a phone or a computer, with the platform's icon.
  r.get(
    "/manifest.webmanifest",
    { access: "public", produces: "application/manifest+json", operationId: "manifest.get" },
    async (_, __, reply) =>
      reply
        .type("application/manifest+json; charset=utf-8")
        .header("cache-control", "no-cache")
        .send(JSON.stringify(webAppManifest(await logos.current()))),
  );
  // "{target}.{any extension}", as clients of this API family ask for it ("/public/logotipos/login.png"):
  // the target's current logo, whatever its type.
  r.get(
    "/public/logotipos/:file",
    {
      errors: ["ERR_NOT_FOUND"],
      access: "public",
      params: logoFileParams,
      query: logoFileQuery,
      produces: "image/*",
    },
    async ({ params, query }, req, reply) => {
      const target = params.file.replace(/\.[a-z]{3,4}$/i, "");
      const logo = isLogoTarget(target) ? await logos.file(target) : null;
      if (!logo) return sendError(reply, req, "ERR_NOT_FOUND");
      const etag = `"${logo.version}"`;
      // A URL naming the current version never changes; any other is checked again each time.
      reply
        .headers(LOGO_HEADERS)
        .header("etag", etag)
        .header(
          "cache-control",
          query.v === logo.version ? "public, max-age=31536000, immutable" : "no-cache",
        );
      if (req.headers["if-none-match"] === etag) return reply.status(304).send();
      return reply.header("content-type", LOGO_CONTENT_TYPES[logo.ext]).send(logo.data);
    },
  );
}

/** The logos module: the super user's uploads and the public reads of the current logos. */
export async function logosModule(parent: FastifyInstance, deps: LogosDeps): Promise<LogosService> {
  const logos = createLogosService(deps);
  await parent.register(async (app) => {
    await app.register(multipart, {
      limits: { fileSize: LOGO_MAX_BYTES, files: 1, fields: 10 },
      throwFileSizeLimit: true,
    });
    logosRoutes(app, logos);
  });
  return logos;
}

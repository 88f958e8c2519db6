import multipart from "@fastify/multipart";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import {
  announcementAdminSchema,
  announcementAnswerSchema,
  announcementCreateSchema,
  announcementUpdateSchema,
  announcementsPageSchema,
  idParam,
  listQuerySchema,
  myAnnouncementsSchema,
  timestamp,
} from "@atende/contracts";
import { routes } from "../../http/route.js";
import { readSingleUpload, uploadForm } from "../../http/upload.js";
import { type AnnouncementsDeps, type AnnouncementsService, createAnnouncementsService } from "./service.js";

export function announcementsRoutes(app: FastifyInstance, announcements: AnnouncementsService) {
  const r = routes(app);
  // Every user reads what is addressed to their company; the super user reads and writes them all.
  r.get(
    "/announcements",
    { access: "user", query: listQuerySchema, response: announcementsPageSchema },
    ({ auth, query }) => announcements.page(auth, query),
  );
  r.get("/announcements/for-me", { access: "user", response: myAnnouncementsSchema }, ({ auth }) =>
    announcements.forMe(auth),
  );
  r.post("/announcements/seen", { access: "user", response: z.object({ seenAt: timestamp }) }, ({ auth }) =>
    announcements.markSeen(auth),
  );
  r.get(
    "/announcements/:id",
    {
      errors: ["ERR_NO_ANNOUNCEMENT_FOUND"],
      access: "user",
      params: idParam,
      response: announcementAnswerSchema,
    },
    ({ auth, params }) => announcements.get(auth, params.id),
  );
  r.get(
    "/announcements/:id/media",
    { errors: ["ERR_NOT_FOUND"], access: "user", params: idParam, produces: "image/png" },
    async ({ auth, params }, _req, reply) => {
      const { data, mimetype } = await announcements.readMedia(auth, params.id);
      return reply
        .header("content-type", mimetype)
        .header("x-content-type-options", "nosniff")
        .header("content-security-policy", "default-src 'none'; sandbox")
        .header("cache-control", "private, max-age=86400")
        .send(data);
    },
  );
  r.post(
    "/announcements",
    {
      errors: ["ERR_NO_COMPANY_FOUND"],
      access: "super",
      body: announcementCreateSchema,
      status: 201,
      response: announcementAdminSchema,
    },
    ({ auth, body }) => announcements.create(auth, body),
  );
  // The guard leaves routes with an id to the service, which checks the super user before the lookup.
  const byId = { access: "super", params: idParam } as const;
  const answered = { ...byId, response: announcementAdminSchema } as const;
  r.put(
    "/announcements/:id",
    { errors: ["ERR_NO_ANNOUNCEMENT_FOUND"], ...answered, body: announcementUpdateSchema },
    ({ auth, params, body }) => announcements.update(auth, params.id, body),
  );
  r.delete(
    "/announcements/:id",
    { errors: ["ERR_NO_ANNOUNCEMENT_FOUND"], ...byId, status: 204 },
    ({ auth, params }) => announcements.remove(auth, params.id),
  );
  r.post(
    "/announcements/:id/media-upload",
    {
      errors: ["ERR_ANNOUNCEMENT_MEDIA_TYPE", "ERR_NO_ANNOUNCEMENT_FOUND"],
      ...answered,
      bodyDoc: uploadForm,
      consumes: ["multipart/form-data"],
    },
    ({ auth, params }, req) => announcements.attachMedia(auth, params.id, () => readSingleUpload(req)),
  );
  r.delete(
    "/announcements/:id/media-upload",
    { ...answered, errors: ["ERR_NO_ANNOUNCEMENT_FOUND"] },
    ({ auth, params }) => announcements.removeMedia(auth, params.id),
  );
}

/** The announcements module: the super user's /announcements page and everyone's top-bar popover. */
export async function announcementsModule(
  parent: FastifyInstance,
  deps: AnnouncementsDeps & { maxFileBytes: number },
): Promise<AnnouncementsService> {
  const announcements = createAnnouncementsService(deps);
  await parent.register(async (app) => {
    await app.register(multipart, {
      limits: { fileSize: deps.maxFileBytes, files: 1, fields: 10 },
      throwFileSizeLimit: true,
    });
    announcementsRoutes(app, announcements);
  });
  return announcements;
}

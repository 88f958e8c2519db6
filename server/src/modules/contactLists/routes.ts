import multipart from "@fastify/multipart";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import {
  CONTACT_LIST_IMPORT_LIMITS,
  contactListCreateSchema,
  contactListImportSchema,
  contactListItemCreateSchema,
  contactListItemQuerySchema,
  contactListItemSchema,
  contactListItemUpdateSchema,
  contactListItemsPageSchema,
  contactListSchema,
  contactListUpdateSchema,
  contactListsPageSchema,
  contactListsQuerySchema,
  idParam,
  idValue,
  messageAnswer,
} from "@atende/contracts";
import type { SessionManager } from "../../channels/sessions.js";
import type { JobRunner } from "../../jobs/runner.js";
import { CAMPAIGNS_ACCESS } from "../campaigns/policy.js";
import { langOf } from "../../http/errors.js";
import { CSV_TYPE, XLSX_TYPE, sendDownload } from "../../http/download.js";
import { routes } from "../../http/route.js";
import { streamSingleUpload, uploadForm } from "../../http/upload.js";
import { registerContactListJobs } from "./jobs.js";
import { ParkedReadings } from "./sheetReader.js";
import { type ContactListsDeps, type ContactListsService, createContactListsService } from "./service.js";

const importParams = z.object({ id: idValue, importId: idValue });

export function contactListsRoutes(app: FastifyInstance, lists: ContactListsService) {
  const r = routes(app);
  // Contact lists are the campaigns' audiences: every call needs the plan's campaigns and the
  // campaigns' permission (an agent would otherwise change who a campaign sends to).
  const gated = { access: CAMPAIGNS_ACCESS, plan: "useCampaigns" } as const;
  const byId = { ...gated, params: idParam } as const;

  r.get(
    "/contact-lists",
    { ...gated, query: contactListsQuerySchema, response: contactListsPageSchema },
    ({ auth, query }) => lists.page(auth, query),
  );
  r.get(
    "/contact-lists/list",
    { ...gated, operationId: "contactLists.listAll", response: z.array(contactListSchema) },
    ({ auth }) => lists.list(auth),
  );
  r.get(
    "/contact-lists/example.xlsx",
    { ...gated, produces: XLSX_TYPE, summary: "The example spreadsheet of the import" },
    async (_input, _req, reply) => sendDownload(reply, XLSX_TYPE, "planilha_exemplo.xlsx", lists.example()),
  );
  r.get(
    "/contact-lists/:id",
    { errors: ["ERR_NO_CONTACT_LIST_FOUND"], ...byId, response: contactListSchema },
    ({ auth, params }) => lists.get(auth, params.id),
  );
  r.post(
    "/contact-lists",
    {
      errors: ["ERR_NO_WAPP_FOUND"],
      ...gated,
      body: contactListCreateSchema,
      status: 201,
      response: contactListSchema,
    },
    ({ auth, body }) => lists.create(auth, body),
  );
  r.put(
    "/contact-lists/:id",
    {
      errors: ["ERR_NO_CONTACT_LIST_FOUND"],
      ...byId,
      body: contactListUpdateSchema,
      response: contactListSchema,
    },
    ({ auth, params, body }) => lists.update(auth, params.id, body),
  );
  r.delete(
    "/contact-lists/:id",
    { errors: ["ERR_NO_CONTACT_LIST_FOUND"], ...byId, response: messageAnswer },
    async ({ auth, params }) => {
      await lists.remove(auth, params.id);
      return { message: "Contact list deleted" };
    },
  );
  r.post(
    "/contact-lists/:id/upload",
    // Each upload is stored and read by a worker thread: ten a minute per user, as the contacts import.
    {
      ...byId,
      bodyDoc: uploadForm,
      consumes: ["multipart/form-data"],
      rateLimit: { max: 10, windowSeconds: 60, by: "user" },
      response: contactListImportSchema,
      errors: [
        "ERR_CONTACT_LIST_IMPORT_INVALID_FILE",
        "ERR_CONTACT_LIST_IMPORT_NO_NUMBER_COLUMN",
        "ERR_CONTACT_LIST_IMPORT_TOO_LARGE",
        "ERR_NO_CONTACT_LIST_FOUND",
      ],
    },
    ({ auth, params }, req) =>
      lists.upload(auth, params.id, (save, discard) => streamSingleUpload(req, save, discard)),
  );
  // The list's latest import, null when it never had one.
  r.get(
    "/contact-lists/:id/import",
    { errors: ["ERR_NO_CONTACT_LIST_FOUND"], ...byId, response: contactListImportSchema.nullable() },
    ({ auth, params }) => lists.latestImport(auth, params.id),
  );
  r.get(
    "/contact-lists/:id/imports/:importId/errors.csv",
    {
      errors: ["ERR_NO_CONTACT_LIST_FOUND", "ERR_NO_CONTACT_LIST_IMPORT_FOUND"],
      ...gated,
      params: importParams,
      produces: "text/csv",
    },
    async ({ auth, params }, req, reply) =>
      sendDownload(
        reply,
        CSV_TYPE,
        `import-${params.importId}-erros.csv`,
        await lists.importErrorsCsv(auth, params.id, params.importId, langOf(req)),
      ),
  );

  r.get(
    "/contact-list-items",
    {
      errors: ["ERR_NO_CONTACT_LIST_FOUND"],
      ...gated,
      query: contactListItemQuerySchema,
      response: contactListItemsPageSchema,
    },
    ({ auth, query }) => lists.pageItems(auth, query),
  );
  r.get(
    "/contact-list-items/:id",
    { errors: ["ERR_NO_CONTACT_LIST_ITEM_FOUND"], ...byId, response: contactListItemSchema },
    ({ auth, params }) => lists.getItem(auth, params.id),
  );
  r.post(
    "/contact-list-items",
    {
      errors: [
        "ERR_CONTACT_LIST_ITEM_DUPLICATED",
        "ERR_CONTACT_LIST_ITEM_INVALID_NUMBER",
        "ERR_NO_CONTACT_LIST_FOUND",
      ],
      ...gated,
      body: contactListItemCreateSchema,
      status: 201,
      response: contactListItemSchema,
    },
    ({ auth, body }) => lists.createItem(auth, body),
  );
  r.put(
    "/contact-list-items/:id",
    {
      errors: ["ERR_NO_CONTACT_LIST_ITEM_FOUND"],
      ...byId,
      body: contactListItemUpdateSchema,
      response: contactListItemSchema,
    },
    ({ auth, params, body }) => lists.updateItem(auth, params.id, body),
  );
  r.delete(
    "/contact-list-items/:id",
    { errors: ["ERR_NO_CONTACT_LIST_ITEM_FOUND"], ...byId, response: messageAnswer },
    async ({ auth, params }) => {
      await lists.removeItem(auth, params.id);
      return { message: "Contact deleted" };
    },
  );
}

export interface ContactListsModuleDeps extends ContactListsDeps {
  jobs: Pick<JobRunner, "register">;
  sessions: Pick<SessionManager, "session">;
}

/** Contact lists, their items and the spreadsheet import, with its jobs. */
export async function contactListsModule(
  parent: FastifyInstance,
  deps: ContactListsModuleDeps,
): Promise<ContactListsService> {
  // Spreadsheets parsed at upload, kept for their import's job (on this instance).
  const readings = new ParkedReadings();
  parent.addHook("onClose", async () => readings.dropAll());
  const lists = createContactListsService({ ...deps, readings });
  registerContactListJobs(deps.jobs, { ...deps, readings, log: parent.log });
  await parent.register(async (app) => {
    await app.register(multipart, {
      limits: { fileSize: CONTACT_LIST_IMPORT_LIMITS.maxBytes, files: 1, fields: 10 },
      throwFileSizeLimit: true,
    });
    contactListsRoutes(app, lists);
  });
  return lists;
}

import { PassThrough } from "node:stream";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import {
  CONTACT_IMPORT_LIMITS,
  type ContactImportEvent,
  contactCreateSchema,
  contactListQuerySchema,
  contactSchema,
  contactUpdateSchema,
  contactsPageSchema,
  errorMessage,
  idParam,
} from "@atende/contracts";
import type { SessionManager } from "../../channels/sessions.js";
import type { Deps } from "../../deps.js";
import { AppError, langOf } from "../../http/errors.js";
import { CSV_TYPE, XLSX_TYPE, sendDownload } from "../../http/download.js";
import { routes } from "../../http/route.js";
import { createContactsService } from "./service.js";
import { createContactsImportExport } from "./importExport.js";
import { createWhatsappCheck } from "./whatsappCheck.js";

export interface ContactsModuleDeps extends Pick<Deps, "db" | "bus" | "now"> {
  sessions: Pick<SessionManager, "session">;
}

/**
 * Imports a user may start per minute: far more than anyone imports by hand, few enough that
 * nobody keeps the import's worker threads busy.
 */
export const IMPORT_RATE_LIMIT = { max: 10, windowSeconds: 60, by: "user" } as const;

const importQuery = z.object({
  skipInvalid: z.preprocess((v) => v === true || v === "true" || v === "1", z.boolean()).optional(),
});

/** The contacts module: the list, the dialog's calls, CSV export and CSV / XLSX import. */
export async function contactsModule(parent: FastifyInstance, deps: ContactsModuleDeps) {
  const contacts = createContactsService({
    ...deps,
    checkOnWhatsapp: createWhatsappCheck({ db: deps.db, sessions: deps.sessions, log: parent.log }),
  });
  const transfer = createContactsImportExport(deps);

  await parent.register(async (app) => {
    // The import's file travels as the request body, whatever its type (CSV, XLSX, octet-stream).
    app.addContentTypeParser("*", { parseAs: "buffer" }, (_req, body, done) => done(null, body));
    const r = routes(app);
    const listed = { access: "user", query: contactListQuerySchema } as const;

    r.get(
      "/contacts",
      {
        ...listed,
        response: contactsPageSchema,
        summary: "The company's contacts by name, a page at a time, optionally searched",
      },
      ({ auth, query }) => contacts.page(auth, query),
    );
    r.get(
      "/contacts/list",
      { ...listed, response: z.array(contactSchema), operationId: "contacts.listAll" },
      ({ auth, query }) => contacts.list(auth, query),
    );
    r.get("/contacts/export", { ...listed, produces: "text/csv" }, async ({ auth, query }, _req, reply) => {
      const list = await contacts.list(auth, query);
      const day = new Date().toISOString().slice(0, 10);
      return sendDownload(reply, CSV_TYPE, `contacts-${day}.csv`, transfer.toCsv(list));
    });
    r.get(
      "/contacts/:id",
      {
        errors: ["ERR_NO_CONTACT_FOUND"],
        access: "user",
        params: idParam,
        response: contactSchema,
        summary: "A contact",
      },
      ({ auth, params }) => contacts.get(auth, params.id),
    );
    r.post(
      "/contacts",
      {
        errors: ["ERR_DUPLICATED_CONTACT", "ERR_WAPP_INVALID_CONTACT"],
        access: "user",
        body: contactCreateSchema,
        status: 201,
        response: contactSchema,
        summary: "Add a contact (its number checked on WhatsApp where a connection is up)",
        examples: {
          contact: {
            summary: "A contact with an e-mail and one line of extra info",
            value: {
              name: "Maria Souza",
              number: "5511987654321",
              email: "maria@example.com",
              extraInfo: [{ name: "CPF", value: "123.456.789-09" }],
            },
          },
        },
      },
      ({ auth, body }) => contacts.create(auth, body),
    );
    r.put(
      "/contacts/:id",
      {
        errors: ["ERR_DUPLICATED_CONTACT", "ERR_NO_CONTACT_FOUND", "ERR_WAPP_INVALID_CONTACT"],
        access: "user",
        params: idParam,
        body: contactUpdateSchema,
        response: contactSchema,
        summary: "Change a contact: the fields sent (extraInfo, when sent, replaces the list)",
      },
      ({ auth, params, body }) => contacts.update(auth, params.id, body),
    );
    r.delete(
      "/contacts/:id",
      {
        errors: ["ERR_NO_CONTACT_FOUND"],
        access: "contacts-page:deleteContact",
        params: idParam,
        status: 204,
      },
      ({ auth, params }) => contacts.remove(auth, params.id),
    );

    /**
     * The file is read and refused whole (4xx) before anything streams; then the answer is JSON
     * lines: progress while rows are checked and saved, and the result with the per-row report.
     */
    r.post(
      "/contacts/import",
      {
        errors: ["ERR_IMPORT_INVALID_FILE", "ERR_IMPORT_TOO_MANY_ROWS"],
        access: "user",
        query: importQuery,
        consumes: ["text/csv", XLSX_TYPE],
        produces: "application/x-ndjson",
        bodyLimit: CONTACT_IMPORT_LIMITS.maxBytes,
        rateLimit: IMPORT_RATE_LIMIT,
      },
      async ({ auth: actor, query }, req, reply) => {
        const { skipInvalid = false } = query;
        if (!Buffer.isBuffer(req.body)) throw new AppError("ERR_IMPORT_INVALID_FILE");
        const lang = langOf(req);
        const plan = await transfer.read(req.body, lang);
        const out = new PassThrough();
        const send = (event: ContactImportEvent) => out.write(`${JSON.stringify(event)}\n`);
        transfer.run(actor, plan, { skipInvalid, lang }, send).then(
          (result) => out.end(`${JSON.stringify(result)}\n`),
          (err: unknown) => {
            const code = err instanceof AppError ? err.code : "ERR_INTERNAL";
            if (code === "ERR_INTERNAL") req.log.error({ err }, "contacts import failed");
            out.end(`${JSON.stringify({ type: "error", error: code, message: errorMessage(code, lang) })}\n`);
          },
        );
        return reply
          .type("application/x-ndjson; charset=utf-8")
          .header("cache-control", "no-store")
          .header("x-accel-buffering", "no")
          .send(out);
      },
    );
  });
}

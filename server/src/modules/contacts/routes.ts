import { PassThrough } from "node:stream";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import {
  CONTACT_IMPORT_LIMITS,
  type ContactImportEvent,
  contactCreateSchema,
  contactListQuerySchema,
  contactUpdateSchema,
  errorMessage,
  idParam,
} from "@atende/contracts";
import type { SessionManager } from "../../channels/sessions.js";
import type { Deps } from "../../deps.js";
import { authOf } from "../../http/auth.js";
import { AppError, langOf, parseInput } from "../../http/errors.js";
import { createContactsService } from "./service.js";
import { createContactsImportExport } from "./importExport.js";
import { createWhatsappCheck } from "./whatsappCheck.js";

export interface ContactsModuleDeps extends Pick<Deps, "db" | "bus" | "now"> {
  sessions: Pick<SessionManager, "session">;
}

const importQuery = z.object({
  skipInvalid: z.preprocess((v) => v === true || v === "true" || v === "1", z.boolean()).optional(),
});

/** /contacts: the list, the dialog's calls, CSV export and CSV / XLSX import. Behind requireAuth. */
export async function contactsRoutes(parent: FastifyInstance, deps: ContactsModuleDeps) {
  const contacts = createContactsService({
    ...deps,
    checkOnWhatsapp: createWhatsappCheck({ db: deps.db, sessions: deps.sessions, log: parent.log }),
    // Called after the delete committed; realtime sends it to the company's sockets.
    announceDeleted: (companyId, contactId) =>
      void deps.bus.publish([{ type: "contact.deleted", companyId, contactId }]),
  });
  const transfer = createContactsImportExport(deps);

  await parent.register(async (app) => {
    // The import's file travels as the request body, whatever its type (CSV, XLSX, octet-stream).
    app.addContentTypeParser("*", { parseAs: "buffer" }, (_req, body, done) => done(null, body));

    app.get("/contacts", async (req) =>
      contacts.page(authOf(req), parseInput(contactListQuerySchema, req.query, req)),
    );
    app.get("/contacts/list", async (req) =>
      contacts.list(authOf(req), parseInput(contactListQuerySchema, req.query, req)),
    );
    app.get("/contacts/export", async (req, reply) => {
      const list = await contacts.list(authOf(req), parseInput(contactListQuerySchema, req.query, req));
      const day = new Date().toISOString().slice(0, 10);
      return reply
        .type("text/csv; charset=utf-8")
        .header("content-disposition", `attachment; filename="contacts-${day}.csv"`)
        .header("cache-control", "no-store")
        .send(transfer.toCsv(list));
    });
    app.get("/contacts/:id", async (req) =>
      contacts.get(authOf(req), parseInput(idParam, req.params, req).id),
    );
    app.post("/contacts", async (req, reply) => {
      const contact = await contacts.create(authOf(req), parseInput(contactCreateSchema, req.body, req));
      return reply.status(201).send(contact);
    });
    app.put("/contacts/:id", async (req) =>
      contacts.update(
        authOf(req),
        parseInput(idParam, req.params, req).id,
        parseInput(contactUpdateSchema, req.body, req),
      ),
    );
    app.delete("/contacts/:id", async (req, reply) => {
      await contacts.remove(authOf(req), parseInput(idParam, req.params, req).id);
      return reply.status(204).send();
    });

    /**
     * The file is read and refused whole (4xx) before anything streams; then the answer is JSON
     * lines: progress while rows are checked and saved, and the result with the per-row report.
     */
    app.post("/contacts/import", { bodyLimit: CONTACT_IMPORT_LIMITS.maxBytes }, async (req, reply) => {
      const actor = authOf(req);
      const { skipInvalid = false } = parseInput(importQuery, req.query, req);
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
    });
  });
}

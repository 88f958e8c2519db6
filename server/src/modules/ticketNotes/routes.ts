import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { idParam, ticketNoteCreateSchema, ticketNoteSchema, ticketNotesQuerySchema } from "@atende/contracts";
import { routes } from "../../http/route.js";
import { type TicketNotesDeps, type TicketNotesService, createTicketNotesService } from "./service.js";

export function ticketNotesRoutes(app: FastifyInstance, notes: TicketNotesService) {
  const r = routes(app);
  r.get(
    "/ticket-notes/list",
    {
      errors: ["ERR_NO_TICKET_FOUND", "ERR_TICKET_ACCESS_DENIED"],
      access: "user",
      query: ticketNotesQuerySchema,
      response: z.array(ticketNoteSchema),
    },
    ({ auth, query }) => notes.list(auth, query),
  );
  r.post(
    "/ticket-notes",
    {
      errors: ["ERR_NO_CONTACT_FOUND", "ERR_NO_TICKET_FOUND", "ERR_TICKET_ACCESS_DENIED"],
      access: "user",
      body: ticketNoteCreateSchema,
      status: 201,
      response: ticketNoteSchema,
    },
    ({ auth, body }) => notes.create(auth, body),
  );
  // The author, or ticket-notes:deleteAny (the service decides).
  r.delete(
    "/ticket-notes/:id",
    {
      errors: ["ERR_NO_PERMISSION", "ERR_NO_TICKET_NOTE_FOUND", "ERR_TICKET_ACCESS_DENIED"],
      access: "user",
      params: idParam,
      status: 204,
    },
    ({ auth, params }) => notes.remove(auth, params.id),
  );
}

/** The ticket notes module: the contact drawer's private notes. */
export async function ticketNotesModule(
  app: FastifyInstance,
  deps: TicketNotesDeps,
): Promise<TicketNotesService> {
  const notes = createTicketNotesService(deps);
  ticketNotesRoutes(app, notes);
  return notes;
}

import type { FastifyInstance } from "fastify";
import { idParam, ticketNoteCreateSchema, ticketNotesQuerySchema } from "@atende/contracts";
import { authOf } from "../../http/auth.js";
import { parseInput } from "../../http/errors.js";
import { type TicketNotesDeps, type TicketNotesService, createTicketNotesService } from "./service.js";

export function ticketNotesRoutes(app: FastifyInstance, notes: TicketNotesService) {
  app.get("/ticket-notes/list", async (req) =>
    notes.list(authOf(req), parseInput(ticketNotesQuerySchema, req.query, req)),
  );
  app.post("/ticket-notes", async (req, reply) =>
    reply
      .status(201)
      .send(await notes.create(authOf(req), parseInput(ticketNoteCreateSchema, req.body, req))),
  );
  app.delete("/ticket-notes/:id", async (req, reply) => {
    await notes.remove(authOf(req), parseInput(idParam, req.params, req).id);
    return reply.status(204).send();
  });
}

/** The ticket notes module behind the auth hook: the contact drawer's private notes. */
export function ticketNotesModule(app: FastifyInstance, deps: TicketNotesDeps): TicketNotesService {
  const notes = createTicketNotesService(deps);
  ticketNotesRoutes(app, notes);
  return notes;
}

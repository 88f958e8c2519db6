import type { FastifyInstance } from "fastify";
import { z } from "zod";
import {
  closeAllSchema,
  idParam,
  ticketCreateSchema,
  ticketListQuerySchema,
  ticketUpdateSchema,
  uuidValue,
} from "@atende/contracts";
import { authOf } from "../../http/auth.js";
import { parseInput } from "../../http/errors.js";
import type { TicketsService } from "./service.js";

const uuidParam = z.object({ uuid: uuidValue });

export function ticketsRoutes(app: FastifyInstance, tickets: TicketsService) {
  app.get("/tickets", async (req) =>
    tickets.list(authOf(req), parseInput(ticketListQuerySchema, req.query, req)),
  );
  app.get("/tickets/u/:uuid", async (req) =>
    tickets.getByUuid(authOf(req), parseInput(uuidParam, req.params, req).uuid),
  );
  app.get("/tickets/:id", async (req) => tickets.get(authOf(req), parseInput(idParam, req.params, req).id));
  app.post("/tickets", async (req, reply) =>
    reply.status(201).send(await tickets.create(authOf(req), parseInput(ticketCreateSchema, req.body, req))),
  );
  app.post("/tickets/closeAll", async (req) => {
    const input = parseInput(closeAllSchema, req.body, req);
    return { closed: await tickets.closeAll(authOf(req), input.status, input.selectedQueueIds) };
  });
  app.put("/tickets/:id", async (req) =>
    tickets.update(
      authOf(req),
      parseInput(idParam, req.params, req).id,
      parseInput(ticketUpdateSchema, req.body, req),
    ),
  );
  app.delete("/tickets/:id", async (req, reply) => {
    await tickets.remove(authOf(req), parseInput(idParam, req.params, req).id);
    return reply.status(204).send();
  });
}

import type { FastifyInstance } from "fastify";
import { idParam, whatsappSaveSchema } from "@atende/contracts";
import { authOf } from "../../http/auth.js";
import { parseInput } from "../../http/errors.js";
import type { WhatsappsService } from "./service.js";

export function whatsappRoutes(app: FastifyInstance, whatsapps: WhatsappsService) {
  app.get("/whatsapp", async (req) => whatsapps.list(authOf(req)));
  app.get("/whatsapp/:id", async (req) =>
    whatsapps.get(authOf(req), parseInput(idParam, req.params, req).id),
  );
  app.post("/whatsapp", async (req, reply) =>
    reply
      .status(201)
      .send(await whatsapps.create(authOf(req), parseInput(whatsappSaveSchema, req.body, req))),
  );
  app.put("/whatsapp/:id", async (req) =>
    whatsapps.update(
      authOf(req),
      parseInput(idParam, req.params, req).id,
      parseInput(whatsappSaveSchema, req.body, req),
    ),
  );
  app.delete("/whatsapp/:id", async (req, reply) => {
    await whatsapps.remove(authOf(req), parseInput(idParam, req.params, req).id);
    return reply.status(204).send();
  });

  app.post("/whatsappsession/:id", async (req, reply) => {
    await whatsapps.startSession(authOf(req), parseInput(idParam, req.params, req).id, false);
    return reply.status(204).send();
  });
  app.put("/whatsappsession/:id", async (req, reply) => {
    await whatsapps.startSession(authOf(req), parseInput(idParam, req.params, req).id, true);
    return reply.status(204).send();
  });
  app.delete("/whatsappsession/:id", async (req, reply) => {
    await whatsapps.disconnectSession(authOf(req), parseInput(idParam, req.params, req).id);
    return reply.status(204).send();
  });
  app.post("/whatsapp-restart", async (req, reply) => {
    await whatsapps.restartAll(authOf(req));
    return reply.status(204).send();
  });
}

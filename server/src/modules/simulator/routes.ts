import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { idValue, simulatorSendSchema } from "@atende/contracts";
import { authOf } from "../../http/auth.js";
import { parseInput } from "../../http/errors.js";
import type { SimulatorService } from "./service.js";

const params = z.object({ whatsappId: idValue });
const callBody = z.object({
  from: z
    .string()
    .trim()
    .regex(/^\+?\d{8,15}$/, "validation.invalid"),
  name: z.string().trim().max(100).optional(),
  isVideo: z.boolean().optional().default(false),
});
const phoneQuery = z.object({
  number: z
    .string()
    .trim()
    .regex(/^\+?\d{8,15}$/, "validation.invalid"),
});

export function simulatorRoutes(app: FastifyInstance, simulator: SimulatorService) {
  app.get("/simulator/:whatsappId/phones", async (req) =>
    simulator.phones(authOf(req), parseInput(params, req.params, req).whatsappId),
  );
  app.get("/simulator/:whatsappId/messages", async (req) =>
    simulator.messages(
      authOf(req),
      parseInput(params, req.params, req).whatsappId,
      parseInput(phoneQuery, req.query, req).number,
    ),
  );
  app.post("/simulator/:whatsappId/messages", { bodyLimit: 24 * 1024 * 1024 }, async (req, reply) => {
    const { whatsappId } = parseInput(params, req.params, req);
    const sent = await simulator.send(
      authOf(req),
      whatsappId,
      parseInput(simulatorSendSchema, req.body, req),
    );
    return reply.status(201).send(sent);
  });
  app.post("/simulator/:whatsappId/calls", async (req, reply) => {
    const { whatsappId } = parseInput(params, req.params, req);
    const placed = await simulator.call(authOf(req), whatsappId, parseInput(callBody, req.body, req));
    return reply.status(201).send(placed);
  });
  app.post("/simulator/:whatsappId/scan", async (req, reply) => {
    await simulator.scan(authOf(req), parseInput(params, req.params, req).whatsappId);
    return reply.status(204).send();
  });
  app.post("/simulator/:whatsappId/read", async (req) => ({
    read: await simulator.read(
      authOf(req),
      parseInput(params, req.params, req).whatsappId,
      parseInput(phoneQuery, req.query, req).number,
    ),
  }));
}

import type { FastifyInstance } from "fastify";
import { z } from "zod";
import {
  idValue,
  simulatorPhoneMessageSchema,
  simulatorPhoneSchema,
  simulatorSendSchema,
  simulatorSentSchema,
} from "@atende/contracts";
import { routes } from "../../http/route.js";
import { type SimulatorService, createSimulatorService } from "./service.js";

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
  const r = routes(app);
  const phone = { access: "simulator:use", params } as const;
  r.get(
    "/simulator/:whatsappId/phones",
    { errors: ["ERR_NO_WAPP_FOUND"], ...phone, response: z.array(simulatorPhoneSchema) },
    ({ auth, params }) => simulator.phones(auth, params.whatsappId),
  );
  r.get(
    "/simulator/:whatsappId/messages",
    {
      errors: ["ERR_NO_WAPP_FOUND"],
      ...phone,
      query: phoneQuery,
      response: z.array(simulatorPhoneMessageSchema),
    },
    ({ auth, params, query }) => simulator.messages(auth, params.whatsappId, query.number),
  );
  r.post(
    "/simulator/:whatsappId/messages",
    {
      errors: ["ERR_MEDIA_TOO_LARGE", "ERR_NO_WAPP_FOUND", "ERR_WAPP_NOT_INITIALIZED"],
      ...phone,
      body: simulatorSendSchema,
      status: 201,
      response: simulatorSentSchema,
      bodyLimit: 24 * 1024 * 1024,
      operationId: "simulator.sendMessage",
    },
    ({ auth, params, body }) => simulator.send(auth, params.whatsappId, body),
  );
  r.post(
    "/simulator/:whatsappId/calls",
    {
      errors: ["ERR_NO_WAPP_FOUND", "ERR_WAPP_NOT_INITIALIZED"],
      ...phone,
      body: callBody,
      status: 201,
      response: simulatorSentSchema,
    },
    ({ auth, params, body }) => simulator.call(auth, params.whatsappId, body),
  );
  r.post(
    "/simulator/:whatsappId/scan",
    { errors: ["ERR_NO_WAPP_FOUND"], ...phone, status: 204 },
    ({ auth, params }) => simulator.scan(auth, params.whatsappId),
  );
  r.post(
    "/simulator/:whatsappId/read",
    {
      errors: ["ERR_NO_WAPP_FOUND"],
      ...phone,
      query: phoneQuery,
      // How many of the business's messages turned read.
      response: z.object({ read: z.number().int().nonnegative() }),
    },
    async ({ auth, params, query }) => ({
      read: await simulator.read(auth, params.whatsappId, query.number),
    }),
  );
}

/** The simulator module: a paired simulator connection's phones, as the admin plays them. */
export async function simulatorModule(
  app: FastifyInstance,
  deps: Parameters<typeof createSimulatorService>[0],
): Promise<SimulatorService> {
  const simulator = createSimulatorService(deps);
  simulatorRoutes(app, simulator);
  return simulator;
}

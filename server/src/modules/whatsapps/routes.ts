import type { FastifyInstance } from "fastify";
import { z } from "zod";
import {
  idParam,
  pairingCodeRequestSchema,
  pairingCodeSchema,
  whatsappDetailSchema,
  whatsappSaveSchema,
  whatsappSchema,
  whatsappTokenSchema,
} from "@atende/contracts";
import { routes } from "../../http/route.js";
import { type WhatsappsService, createWhatsappsService } from "./service.js";

export function whatsappRoutes(app: FastifyInstance, whatsapps: WhatsappsService) {
  const r = routes(app);
  const edit = { access: "connections-page:editOrDeleteConnection", params: idParam } as const;
  const session = {
    access: "connections-page:actionButtons",
    params: idParam,
    status: 204,
    errors: ["ERR_NO_WAPP_FOUND"],
  } as const;
  // Every user lists the connections (the new-ticket dialog picks one); admins run them.
  r.get("/whatsapp", { access: "user", response: z.array(whatsappSchema) }, ({ auth }) =>
    whatsapps.list(auth),
  );
  r.get(
    "/whatsapp/:id",
    { errors: ["ERR_NO_WAPP_FOUND"], ...edit, response: whatsappDetailSchema },
    ({ auth, params }) => whatsapps.get(auth, params.id),
  );
  r.post(
    "/whatsapp",
    {
      errors: [
        "ERR_NO_PROMPT_FOUND",
        "ERR_NO_QUEUE_FOUND",
        "ERR_NO_QUEUE_INTEGRATION_FOUND",
        "ERR_PLAN_CONNECTION_LIMIT",
        "ERR_PLAN_FEATURE_DISABLED",
        "ERR_WAPP_GREETING_REQUIRED",
        "ERR_WAPP_NAME_TAKEN",
        "ERR_WAPP_TOKEN_NOT_SETTABLE",
      ],
      access: "connections-page:addConnection",
      body: whatsappSaveSchema,
      status: 201,
      response: whatsappDetailSchema,
    },
    ({ auth, body }) => whatsapps.create(auth, body),
  );
  r.put(
    "/whatsapp/:id",
    {
      errors: [
        "ERR_NO_OTHER_WHATSAPP",
        "ERR_NO_PROMPT_FOUND",
        "ERR_NO_QUEUE_FOUND",
        "ERR_NO_WAPP_FOUND",
        "ERR_PLAN_FEATURE_DISABLED",
        "ERR_WAPP_GREETING_REQUIRED",
        "ERR_WAPP_NAME_TAKEN",
        "ERR_WAPP_TOKEN_NOT_SETTABLE",
      ],
      ...edit,
      body: whatsappSaveSchema,
      response: whatsappDetailSchema,
    },
    ({ auth, params, body }) => whatsapps.update(auth, params.id, body),
  );
  r.delete("/whatsapp/:id", { errors: ["ERR_NO_WAPP_FOUND"], ...edit, status: 204 }, ({ auth, params }) =>
    whatsapps.remove(auth, params.id),
  );
  // Not in the spec: the server makes connection tokens (the spec's dialog let a company type one).
  r.post(
    "/whatsapp/:id/token",
    {
      errors: ["ERR_NO_WAPP_FOUND"],
      ...edit,
      response: whatsappTokenSchema,
      summary: "A new API token for the connection (answered this once)",
      description:
        "Makes a new token for POST /api/messages/send (256 random bits) and answers it with its hint; the token it replaces stops working at once. Afterwards the connection shows only `tokenHint`.",
      rateLimit: { max: 10, windowSeconds: 60, by: "user" },
    },
    ({ auth, params }) => whatsapps.rotateToken(auth, params.id),
  );

  r.post("/whatsappsession/:id", session, ({ auth, params }) =>
    whatsapps.startSession(auth, params.id, false),
  );
  r.put("/whatsappsession/:id", session, ({ auth, params }) => whatsapps.startSession(auth, params.id, true));
  r.delete("/whatsappsession/:id", session, ({ auth, params }) =>
    whatsapps.disconnectSession(auth, params.id),
  );
  // Not in the spec: the QR dialog's "pair with a phone number" (an 8-character code typed on the phone).
  r.post(
    "/whatsappsession/:id/pairing-code",
    {
      errors: [
        "ERR_NO_WAPP_FOUND",
        "ERR_WAPP_PAIRING_NOT_WAITING",
        "ERR_WAPP_NOT_INITIALIZED",
        "ERR_WAPP_PAIRING_UNAVAILABLE",
        "ERR_WAPP_PAIRING_FAILED",
      ],
      access: "connections-page:actionButtons",
      params: idParam,
      body: pairingCodeRequestSchema,
      response: pairingCodeSchema,
      summary: "A code that pairs the connection's phone instead of the QR code",
      description:
        "While the connection waits for a phone (qrcode or OPENING): asks WhatsApp for an 8-character code for `number` (the phone's own, with country and area code), typed on the phone under Linked devices → Link with phone number. 409 ERR_WAPP_PAIRING_NOT_WAITING once paired; 409 ERR_WAPP_NOT_INITIALIZED while the session is not running (it could not start yet); 400 ERR_WAPP_PAIRING_UNAVAILABLE for a Cloud API connection; 400 ERR_WAPP_PAIRING_FAILED when WhatsApp gives no code.",
      // Each call makes WhatsApp send the phone a notification: a few tries a minute are plenty.
      rateLimit: { max: 5, windowSeconds: 60, by: "user" },
    },
    ({ auth, params, body }) => whatsapps.pairingCode(auth, params.id, body.number),
  );
  r.post("/whatsapp-restart", { access: "connections-page:actionButtons", status: 204 }, ({ auth }) =>
    whatsapps.restartAll(auth),
  );
}

/** The connections module: WhatsApp connections and their sessions. */
export async function whatsappsModule(
  app: FastifyInstance,
  deps: Parameters<typeof createWhatsappsService>[0],
): Promise<WhatsappsService> {
  const whatsapps = createWhatsappsService(deps);
  whatsappRoutes(app, whatsapps);
  return whatsapps;
}

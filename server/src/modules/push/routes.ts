import type { FastifyInstance } from "fastify";
import { pushEndpointSchema, pushKeySchema, pushSubscriptionSchema } from "@atende/contracts";
import { routes } from "../../http/route.js";
import { type PushDeps, type PushService, createPushService } from "./service.js";

export function pushRoutes(app: FastifyInstance, push: PushService) {
  const r = routes(app);
  r.get("/push/key", { access: "user", response: pushKeySchema }, () => push.key());
  // One device: its endpoint names it; registering it again (a new session, new keys) replaces it.
  r.put(
    "/push/subscription",
    {
      errors: ["ERR_PUSH_ENDPOINT_FORBIDDEN", "ERR_PUSH_ENDPOINT_INVALID"],
      access: "user",
      body: pushSubscriptionSchema,
      status: 204,
    },
    ({ auth, body }) => push.subscribe(auth, body),
  );
  r.delete(
    "/push/subscription",
    { access: "user", body: pushEndpointSchema, status: 204 },
    ({ auth, body }) => push.unsubscribe(auth, body.endpoint),
  );
}

/** Web Push: the server's key and the devices that hear the user's notifications. */
export async function pushModule(app: FastifyInstance, deps: PushDeps): Promise<PushService> {
  const push = createPushService(deps);
  pushRoutes(app, push);
  return push;
}

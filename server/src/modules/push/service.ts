import { PUSH_LIMITS, type PushKeyDTO, type PushSubscriptionInput } from "@atende/contracts";
import type { Deps } from "../../deps.js";
import { inTransaction } from "../../events/bus.js";
import type { AuthContext } from "../../http/auth.js";
import { AppError } from "../../http/errors.js";
import type { Outbound } from "../../lib/outbound.js";
import type { PushNotifier } from "./notifier.js";
import * as q from "./queries.js";
import type { Vapid } from "./vapid.js";

export type PushDeps = Pick<Deps, "db" | "bus" | "now"> & {
  outbound: Pick<Outbound, "accept">;
  vapid: Vapid;
  notifier: Pick<PushNotifier, "registered">;
  /** Push services speak https only; http endpoints pass only where private addresses may (tests). */
  httpsOnly: boolean;
};

export function createPushService({ db, bus, now, outbound, vapid, notifier, httpsOnly }: PushDeps) {
  return {
    /** The key a browser subscribes with (its applicationServerKey). */
    key(): PushKeyDTO {
      return { publicKey: vapid.publicKey };
    },

    /**
     * This device hears the caller's notifications, for as long as this session lasts. Its endpoint
     * is an address the browser gave: judged now as any typed URL (and again on every push).
     */
    async subscribe(actor: AuthContext, input: PushSubscriptionInput): Promise<void> {
      const url = await outbound.accept(
        input.endpoint,
        { invalid: "ERR_PUSH_ENDPOINT_INVALID", forbidden: "ERR_PUSH_ENDPOINT_FORBIDDEN" } as const,
        (code) => new AppError(code),
      );
      if (httpsOnly && url.protocol !== "https:") throw new AppError("ERR_PUSH_ENDPOINT_INVALID");
      await inTransaction(db, bus, async (tx) => {
        await q.saveSubscription(tx, actor.companyId, {
          userId: actor.userId,
          sessionId: actor.sessionId,
          endpoint: input.endpoint,
          p256dh: input.keys.p256dh,
          auth: input.keys.auth,
          language: input.language,
          at: now(),
        });
        await q.trimDevices(tx, actor.companyId, actor.userId, PUSH_LIMITS.devicesPerUser);
      });
      notifier.registered(actor.companyId);
    },

    /** This device stops hearing them (the user turned them off here). */
    async unsubscribe(actor: AuthContext, endpoint: string): Promise<void> {
      await q.deleteEndpoint(db, actor.companyId, actor.userId, endpoint);
    },
  };
}

export type PushService = ReturnType<typeof createPushService>;

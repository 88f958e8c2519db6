import type { Lang, PushKeyDTO } from "@atende/contracts";
import { api } from "./http";

/** GET /push/key: the server's VAPID public key, the applicationServerKey devices subscribe with. */
export function fetchPushKey(): Promise<PushKeyDTO> {
  return api.get<PushKeyDTO>("/push/key");
}

/** PUT /push/subscription: this device hears the user's notifications, in `language`. */
export function registerPushDevice(subscription: PushSubscriptionJSON, language: Lang): Promise<void> {
  return api.put<void>("/push/subscription", { ...subscription, language });
}

/** DELETE /push/subscription: this device stops hearing them. */
export function forgetPushDevice(endpoint: string): Promise<void> {
  return api.delete<void>("/push/subscription", { body: { endpoint } });
}

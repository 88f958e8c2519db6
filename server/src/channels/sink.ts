import type { ChannelEvent, ConnectionInfo } from "./provider.js";

/**
 * Where a provider's events go: the one inbound pipeline (modules/inbound) implements it, and the
 * sessions, the Cloud webhook and the simulator are handed it when the app is put together.
 */
export interface Inbound {
  handle(connection: ConnectionInfo, event: ChannelEvent): Promise<void>;
}

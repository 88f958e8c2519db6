import { makeWASocket, type WAVersion } from "./lib.js";
import type { ChannelProvider } from "../provider.js";
import { useDbAuthState } from "./authState.js";
import { consoleLogger, type BaileysLogger } from "./logger.js";
import type { MediaDownloader } from "./mapping.js";
import { openBaileysMedia } from "./media.js";
import type { NumberCheckOptions } from "./numberDirectory.js";
import { baileysSession } from "./session.js";
import { exponentialBackoff, SocketSupervisor, type SocketMaker } from "./supervisor.js";
import type { WaWebVersionSource } from "./version.js";

export interface BaileysProviderOptions {
  /** Builds the socket; tests pass a fake. Defaults to Baileys' makeWASocket. */
  makeSocket?: SocketMaker;
  logger?: BaileysLogger;
  /** Milliseconds before reconnect attempt n; defaults to 1 s, 2 s, 4 s ... 5 minutes, jittered. */
  backoff?: (attempt: number) => number;
  /** QR refreshes offered before giving up (DISCONNECTED). Default 5. */
  maxQrRefreshes?: number;
  /** Failed connects in a row before the connection shows TIMEOUT (it keeps retrying). Default 6. */
  timeoutAfter?: number;
  /** The WhatsApp Web version announced (WA_WEB_VERSION), whatever `latestVersion` reads. */
  version?: WAVersion;
  /** Where the current WhatsApp Web version is read at each connect; without it, Baileys' bundled one. */
  latestVersion?: WaWebVersionSource;
  /** Fetches media bytes; defaults to Baileys' downloadMediaMessage. */
  downloadMedia?: MediaDownloader;
  /** How numbers are checked on WhatsApp: per query, the pause between queries (numberDirectory.ts). */
  numberChecks?: NumberCheckOptions;
}

/**
 * WhatsApp Web multi-device through Baileys: the spec's provider "beta". The session state lives
 * in the AuthStore (the database), so any instance holding the lease can resume it.
 */
export function baileysProvider(options: BaileysProviderOptions = {}): ChannelProvider {
  // The sockets this instance runs: an expired media link is renewed through the connection's own.
  const supervisors = new Map<number, SocketSupervisor>();
  return {
    name: "beta",
    async downloadMedia(connection, ref) {
      const supervisor = supervisors.get(connection.id);
      return openBaileysMedia(ref, {
        logger: options.logger ?? consoleLogger(),
        download: options.downloadMedia,
        reupload: supervisor ? (m) => supervisor.openSocket().updateMediaMessage(m) : undefined,
      });
    },
    async start(connection, sink, store) {
      const logger = (options.logger ?? consoleLogger()).child({ whatsappId: connection.id });
      const backoff = options.backoff ?? exponentialBackoff;
      const auth = await useDbAuthState(store, { logger, retryDelay: backoff });
      const supervisor = new SocketSupervisor(auth, store, sink, {
        makeSocket: options.makeSocket ?? makeWASocket,
        logger,
        backoff,
        maxQrRefreshes: options.maxQrRefreshes ?? 5,
        timeoutAfter: options.timeoutAfter ?? 6,
        downloadMedia: options.downloadMedia,
        version: options.version,
        latestVersion: options.latestVersion,
      });
      supervisors.set(connection.id, supervisor);
      // Reading the current WhatsApp Web version (bounded) does not hold the start up.
      void supervisor.connect();
      return baileysSession(supervisor, store, options.numberChecks);
    },
  };
}

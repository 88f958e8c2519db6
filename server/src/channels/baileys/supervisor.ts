import {
  DisconnectReason,
  downloadMediaMessage,
  type BaileysEventEmitter,
  type BaileysEventMap,
  type ConnectionState,
  type Contact,
  type UserFacingSocketConfig,
  type WASocket,
  type WAVersion,
} from "./lib.js";
import type { WhatsappStatus } from "@atende/contracts";
import {
  ChannelError,
  type AuthStore,
  type ChannelAddress,
  type ChannelEvent,
  type ChannelSink,
} from "../provider.js";
import { type DbAuthState, SAVE_CREDS_ATTEMPTS } from "./authState.js";
import { CloseCounter } from "./closes.js";
import { notConnected, statusCodeOf, toChannelError } from "./errors.js";
import { GroupAuthors, GroupDirectory } from "./groups.js";
import { HistoryFeed, syncEveryHistoryPart } from "./history.js";
import { addressToJid, jidToAddress } from "./jid.js";
import { AltJids, type LidMappingStore, mapLidMapping } from "./lid.js";
import type { BaileysLogger } from "./logger.js";
import { mapUpsertedMessage, type MediaDownloader } from "./mapping.js";
import { PairingSocket } from "./pairingSocket.js";
import { SentMessages } from "./sentMessages.js";
import { SinkQueue } from "./sinkQueue.js";
import { BROWSER, sessionCaches, shouldIgnoreJid } from "./socketConfig.js";
import { mapCall, mapContact, mapGroupReceipt, mapPresence, mapStatusUpdate } from "./updates.js";
import { BUNDLED_WA_WEB_VERSION, type WaWebVersion, type WaWebVersionSource } from "./version.js";

export { exponentialBackoff, MAX_BACKOFF_MS } from "../backoff.js";
export { PAIRING_WAIT_MS } from "./pairingSocket.js";

/** The part of a Baileys socket Atende uses; a test passes a fake with these members. */
export type BaileysSocket = Pick<
  WASocket,
  | "user"
  | "sendMessage"
  | "readMessages"
  | "onWhatsApp"
  | "profilePictureUrl"
  | "logout"
  | "end"
  | "updateMediaMessage"
  | "rejectCall"
  | "sendPresenceUpdate"
  | "requestPairingCode"
  | "presenceSubscribe"
  | "groupMetadata"
  | "groupFetchAllParticipating"
> & {
  ev: Pick<BaileysEventEmitter, "on" | "off">;
  /** Baileys' LID ↔ phone number store (lid.ts); optional so a fake socket may leave it out. */
  signalRepository?: { lidMapping: LidMappingStore };
};

export type SocketMaker = (config: UserFacingSocketConfig) => BaileysSocket;

/** A chat's presence is asked for again after this long (WhatsApp Web asks on each chat opening). */
export const PRESENCE_RESUBSCRIBE_MS = 5 * 60_000;

export interface SupervisorOptions {
  makeSocket: SocketMaker;
  logger: BaileysLogger;
  /** Milliseconds to wait before reconnect attempt n (1, 2, ...). */
  backoff: (attempt: number) => number;
  /** QR codes refreshed this many times without a scan: the session stops (DISCONNECTED). */
  maxQrRefreshes: number;
  /**
   * Closes in a row without the socket opening after which the connection shows TIMEOUT, so the
   * admin is told. It keeps retrying all the same: only a logout, a refusal or a replacement stop it.
   */
  timeoutAfter: number;
  downloadMedia?: MediaDownloader;
  /** The WhatsApp Web version to announce (WA_WEB_VERSION): always this one. */
  version?: WAVersion;
  /** Unless `version` is set, the current WhatsApp Web version is read here at each connect. */
  latestVersion?: WaWebVersionSource;
}

/**
 * Keeps one connection's Baileys socket alive: builds it, turns its events into ChannelEvents,
 * reconnects after drops with a capped backoff for as long as it takes (an outage at night must not
 * leave the number down until someone clicks), and stops for good only on logout (401), on
 * WhatsApp's refusal (403), or when nobody scans the QR code (closes.ts says which close is which).
 */
export class SocketSupervisor {
  private socket: BaileysSocket | null = null;
  private open = false;
  private stopped = false;
  private readonly closes: CloseCounter;
  /** Baileys' retry counters and device lists, kept across this connection's sockets. */
  private readonly caches = sessionCaches();
  private qrShown = 0;
  private readonly pairing = new PairingSocket();
  private reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  private unsubscribe: () => void = () => {};
  private readonly queue: SinkQueue;
  /** The other half of a customer's address, from the open socket's LID mapping store. */
  private readonly altJids: AltJids;
  /** What this connection sent, for the phone's resend requests (getMessage). */
  readonly sent: SentMessages;
  private readonly groups: GroupDirectory;
  /** Who wrote the group messages heard lately: read receipts and quotes name them. */
  readonly authors = new GroupAuthors();
  /** What the phone sends of the chats' past after a link (history sync), on its own queue. */
  private readonly history: HistoryFeed;
  /** Chats whose presence the current socket subscribed to, and when (ms). */
  private watched = new Map<string, number>();

  constructor(
    private readonly auth: DbAuthState,
    private readonly store: AuthStore,
    sink: ChannelSink,
    private readonly options: SupervisorOptions,
  ) {
    this.queue = new SinkQueue(sink, options.logger);
    this.closes = new CloseCounter(options.backoff);
    this.altJids = new AltJids(() => this.socket?.signalRepository?.lidMapping, options.logger);
    this.sent = new SentMessages(store, options.logger);
    this.groups = new GroupDirectory({
      fetch: (jid) => this.openSocket().groupMetadata(jid),
      fetchAll: () => this.openSocket().groupFetchAllParticipating(),
      emit: (event) => this.emit(event),
      logger: options.logger,
    });
    this.history = new HistoryFeed(sink, {
      download: this.download,
      altJids: this.altJids,
      onMessage: (event) => this.groups.onMessage(event),
      learn: (contact) => this.groups.learn(contact),
      remember: (message) => this.authors.remember(message),
      logger: options.logger,
    });
  }

  /**
   * Builds a socket; a failure to build it counts as a drop (reconnected with the backoff). With a
   * version source and no configured version, waits for the version first (bounded, shared).
   */
  async connect(): Promise<void> {
    // Without a version to read, the socket is built before connect() first yields.
    const { version: configured, latestVersion } = this.options;
    const version: WaWebVersion = configured
      ? { version: configured, source: "configured" }
      : latestVersion
        ? await latestVersion.current()
        : { version: BUNDLED_WA_WEB_VERSION, source: "bundled" };
    if (this.stopped) return;
    this.options.logger.info(
      { version: version.version.join("."), source: version.source },
      "baileys: connecting with this WhatsApp Web version",
    );
    let socket: BaileysSocket;
    try {
      socket = this.build(version);
    } catch (err) {
      this.options.logger.error({ err }, "baileys: could not build the socket");
      this.onClose(undefined);
      return;
    }
    this.socket = socket;
    this.watched = new Map();
    this.unsubscribe = this.listen(socket);
  }

  private build(version: WaWebVersion): BaileysSocket {
    return this.options.makeSocket({
      auth: this.auth.state,
      logger: this.options.logger,
      browser: BROWSER,
      // Agents answer from here; the phone keeps its notifications.
      markOnlineOnConnect: false,
      // What customers wrote while the number was unlinked exists only on the phone: on a link it
      // sends the chats' history (every part of it, FULL included), imported by the pipeline.
      syncFullHistory: true,
      shouldSyncHistoryMessage: syncEveryHistoryPart,
      // Our own sends are recorded by the outbound path with the id send() answers; echoing them
      // as upserts would race that write. Messages typed on the phone still arrive.
      emitOwnEvents: false,
      // A phone asking for one of our messages again is answered from the database.
      getMessage: this.sent.find,
      // Sends to a group read its participants from here, kept by the group events.
      cachedGroupMetadata: this.groups.cachedGroupMetadata,
      // Status updates and channels are acknowledged unread: never decrypted, never handed on.
      shouldIgnoreJid,
      ...this.caches,
      // Bundled: left to Baileys.
      ...(version.source === "bundled" ? {} : { version: version.version }),
    });
  }

  /** The socket, when open; otherwise a retryable ChannelError. */
  openSocket(): BaileysSocket {
    if (!this.open || !this.socket || this.stopped) throw notConnected();
    return this.socket;
  }

  /**
   * A code that pairs the phone of `number` (digits with country code) instead of the QR: asked of
   * the socket once it waits to be paired (it offered a QR), so a request made while the socket is
   * still opening waits for that, up to PAIRING_WAIT_MS.
   */
  async requestPairingCode(number: string): Promise<string> {
    if (this.open || this.auth.state.creds.registered) {
      throw new ChannelError("the session is already paired", false, "ERR_WAPP_PAIRING_NOT_WAITING");
    }
    if (this.stopped) throw notConnected();
    const socket = await this.pairing.ready(this.socket);
    // The person now types the code on the phone: the QR refreshes left start over for them.
    this.qrShown = 0;
    try {
      return await socket.requestPairingCode(number);
    } catch (err) {
      throw toChannelError(err, "ERR_WAPP_PAIRING_FAILED");
    }
  }

  /**
   * Asks WhatsApp for the chat's presence (typing, recording), as WhatsApp Web does when a chat is
   * opened; once per socket and chat within PRESENCE_RESUBSCRIBE_MS, so opening a chat often costs
   * nothing. Without a socket open it does nothing: the next opening asks again.
   */
  async watchPresence(address: ChannelAddress): Promise<void> {
    if (!this.open || !this.socket || this.stopped) return;
    const jid = addressToJid(address);
    const now = Date.now();
    const last = this.watched.get(jid);
    if (last !== undefined && now - last < PRESENCE_RESUBSCRIBE_MS) return;
    this.watched.set(jid, now);
    try {
      await this.socket.presenceSubscribe(jid);
    } catch (err) {
      this.watched.delete(jid);
      throw toChannelError(err);
    }
  }

  /** Fetches media bytes, asking the phone to upload them again when the link expired. */
  readonly download: MediaDownloader = async (message) => {
    try {
      if (this.options.downloadMedia) return await this.options.downloadMedia(message);
      return await downloadMediaMessage(
        message,
        "buffer",
        {},
        { logger: this.options.logger, reuploadRequest: (m) => this.openSocket().updateMediaMessage(m) },
      );
    } catch (err) {
      throw toChannelError(err, "ERR_WAPP_DOWNLOAD_MEDIA");
    }
  };

  async stop(): Promise<void> {
    const socket = this.socket;
    this.halt();
    await socket
      ?.end(undefined)
      .catch((err: unknown) => this.options.logger.warn({ err }, "baileys: end failed"));
    this.queue.stop();
    await Promise.all([this.queue.drain(), this.history.stop()]);
  }

  async logout(): Promise<void> {
    const socket = this.socket;
    this.halt();
    try {
      await socket?.logout();
    } catch (err) {
      this.options.logger.warn(
        { err },
        "baileys: logout on WhatsApp failed; forgetting the credentials anyway",
      );
      await socket?.end(undefined).catch(() => undefined);
    } finally {
      await this.store.clear();
    }
    this.queue.stop();
    await Promise.all([this.queue.drain(), this.history.stop()]);
  }

  private listen(socket: BaileysSocket): () => void {
    const on = <K extends keyof BaileysEventMap>(event: K, handle: (arg: BaileysEventMap[K]) => void) => {
      // A throwing listener would break Baileys' own processing of the event.
      const listener = (arg: BaileysEventMap[K]) => {
        try {
          handle(arg);
        } catch (err) {
          this.options.logger.error({ err, event }, "baileys: could not handle an event");
        }
      };
      socket.ev.on(event, listener);
      return () => socket.ev.off(event, listener);
    };
    const offs = [
      on("connection.update", (update) => this.onConnectionUpdate(socket, update)),
      on("creds.update", () => {
        this.auth
          .saveCreds()
          .catch((err: unknown) =>
            this.options.logger.error(
              { err, attempts: SAVE_CREDS_ATTEMPTS },
              "baileys: saving creds failed for good; the session may need a new QR code after a restart",
            ),
          );
      }),
      // Every group the number is in, once open (after the status handler above marked it open).
      on("connection.update", ({ connection }) => void (connection === "open" && this.groups.fill())),
      on("messages.upsert", ({ messages }) =>
        messages.forEach((m) => {
          this.authors.remember(m);
          void this.queue.emitMade(
            async () =>
              this.groups.onMessage(mapUpsertedMessage(m, this.download, await this.altJids.chatAlt(m))),
            "message",
          );
        }),
      ),
      on("messaging-history.set", (set) => this.history.part(set)),
      on("messaging-history.status", (status) => this.history.status(status)),
      on("lid-mapping.update", (mapping) => this.emit(mapLidMapping(mapping))),
      on("messages.update", (updates) => updates.forEach((u) => this.emit(mapStatusUpdate(u)))),
      on("message-receipt.update", (receipts) => receipts.forEach((r) => this.emit(mapGroupReceipt(r)))),
      on("presence.update", (presence) => this.emit(mapPresence(presence))),
      on("contacts.upsert", (contacts) => contacts.forEach((c) => this.onContact(c))),
      on("contacts.update", (contacts) => contacts.forEach((c) => this.onContact(c))),
      on("groups.upsert", (groups) => this.groups.upsert(groups)),
      on("groups.update", (updates) => this.groups.update(updates)),
      on("group-participants.update", (update) => this.groups.participants(update)),
      on("call", (calls) =>
        calls.forEach((c) =>
          this.queue.emitMade(
            async () => mapCall({ ...c, callerPn: await this.altJids.callerAlt(c.from, c.callerPn) }),
            "call",
          ),
        ),
      ),
    ];
    return () => offs.forEach((off) => off());
  }

  private onContact(contact: Partial<Contact>): void {
    // Learnt in the queue's order: messages wait there for their LID lookup, and one that arrived
    // before this contact must not be named by it.
    void this.queue.emitMade(async () => {
      this.groups.learn(contact);
      return mapContact(contact);
    }, "contact");
  }

  private emit(event: ChannelEvent | null): void {
    if (event) void this.queue.emit(event);
  }

  private emitStatus(status: WhatsappStatus, extra: { number?: string; retries?: number } = {}): void {
    // An empty qrcode closes a QR dialog left open.
    this.emit({ type: "connection", status, qrcode: "", ...extra });
  }

  private onConnectionUpdate(socket: BaileysSocket, update: Partial<ConnectionState>): void {
    if (update.qr) this.onQr(socket, update.qr);
    if (update.isNewLogin) this.emitStatus("PAIRING");
    // Past the threshold the connection keeps showing TIMEOUT while it retries, not a flicker of OPENING.
    if (update.connection === "connecting" && !this.timedOut()) this.emitStatus("OPENING");
    if (update.connection === "open") {
      this.open = true;
      this.closes.opened();
      this.qrShown = 0;
      const number = jidToAddress(socket.user?.id, socket.user?.phoneNumber)?.number ?? "";
      this.emitStatus("CONNECTED", { number, retries: 0 });
    }
    if (update.connection === "close") this.onClose(statusCodeOf(update.lastDisconnect?.error));
  }

  private onQr(socket: BaileysSocket, qrcode: string): void {
    const retries = this.qrShown++;
    if (retries > this.options.maxQrRefreshes) {
      // Nobody is scanning: a QR dialog left open must not keep a socket busy forever.
      this.halt();
      socket.end(undefined).catch(() => undefined);
      this.emitStatus("DISCONNECTED");
      return;
    }
    this.pairing.offered(socket);
    this.emit({ type: "connection", status: "qrcode", qrcode, retries });
  }

  private onClose(code: number | undefined): void {
    this.open = false;
    this.pairing.closed();
    this.unsubscribe(); // that socket is finished; a reconnect builds a new one
    this.socket = null;
    if (this.stopped) return;
    const verdict = this.closes.verdict(code);
    if (verdict.kind === "loggedOut") {
      this.halt();
      void this.queue.run(() => this.store.clear(), "clear auth state");
      this.emit({ type: "loggedOut" });
      this.emitStatus("DISCONNECTED");
      return;
    }
    if (verdict.kind === "refused") {
      // WhatsApp refuses this session: reconnecting would only be refused again.
      this.options.logger.warn({ code }, "baileys: session refused by WhatsApp; not reconnecting");
      this.halt();
      this.emitStatus("DISCONNECTED");
      return;
    }
    const { reason, attempt, delayMs } = verdict;
    if (reason === "drop" && this.timedOut()) this.emitStatus("TIMEOUT", { retries: attempt });
    if (code === 405) {
      // The next connect reads the current version again instead of announcing the refused one.
      this.options.latestVersion?.forget();
      this.options.logger.error(
        { code, version: this.options.version?.join(".") ?? "read or bundled" },
        "baileys: WhatsApp refused this WhatsApp Web version; reading it again (WA_WEB_VERSION pins one)",
      );
    } else if (reason !== "restart") {
      const why = code === DisconnectReason.loggedOut ? "logged out right after a restart" : reason;
      this.options.logger.warn({ code, attempt, why }, "baileys: connection closed; reconnecting");
    }
    this.reconnectTimer = setTimeout(() => this.reconnect(), delayMs);
  }

  private timedOut(): boolean {
    return this.closes.failures >= this.options.timeoutAfter;
  }

  private reconnect(): void {
    this.reconnectTimer = undefined;
    if (this.stopped) return;
    void this.connect();
  }

  private halt(): void {
    this.stopped = true;
    this.open = false;
    this.pairing.fail(notConnected());
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = undefined;
    this.unsubscribe();
  }
}

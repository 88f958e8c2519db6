import crypto from "node:crypto";
import type { MediaStore } from "../../storage/media.js";
import type {
  AuthStore,
  ChannelProvider,
  ChannelSession,
  ChannelSink,
  ConnectionInfo,
  OutboundMessage,
} from "../provider.js";
import { ChannelError } from "../provider.js";
import type { PhoneBook } from "./phones.js";

/** How long a sent message takes to show "delivered" on the simulated phone. */
const DELIVERY_DELAY_MS = 250;
const PAIRING_POLL_MS = 500;

/** The alphabet of WhatsApp's pairing codes (no 0, O, I, U: nothing to misread). */
const PAIRING_ALPHABET = "123456789ABCDEFGHJKLMNPQRSTVWXYZ";

/** Numbers ending in 0000 are "not on WhatsApp" in the simulator, so that refusal can be tried too. */
export function simulatorKnowsNumber(number: string): boolean {
  return !/0000$/.test(number);
}

export function simulatorNumber(whatsappId: number): string {
  return `55119${String(90000000 + whatsappId).slice(-8)}`;
}

/**
 * The in-process WhatsApp stand-in. Pairing: OPENING → qrcode → CONNECTED once "scanned" from the
 * simulator page (the scan writes the pairing into the session's store, so it works from any
 * instance). Sends land on the simulated phone, turn delivered at once and read when the phone reads.
 */
export function simulatorProvider(deps: {
  phones: PhoneBook;
  media: MediaStore;
  now: () => Date;
}): ChannelProvider {
  return {
    name: "simulator",
    // A customer's file is already on the simulated phone (the media store): the job copies it.
    async downloadMedia(connection, ref) {
      const file =
        typeof ref.path === "string" ? await deps.media.open(connection.companyId, ref.path) : null;
      if (!file) throw new ChannelError("the simulated phone's file is gone", false);
      return file;
    },
    async start(connection: ConnectionInfo, sink: ChannelSink, store: AuthStore): Promise<ChannelSession> {
      const timers = new Set<NodeJS.Timeout>();
      let stopped = false;
      const later = (ms: number, fn: () => Promise<void>) => {
        const t = setTimeout(() => {
          timers.delete(t);
          if (!stopped) fn().catch(() => undefined);
        }, ms);
        timers.add(t);
      };
      const number = simulatorNumber(connection.id);
      let connected = false;

      const paired = async () => Boolean((await store.get("simulator", ["paired"])).paired);
      const waitForScan = async (): Promise<void> => {
        if (await paired()) {
          connected = true;
          await sink.emit({ type: "connection", status: "CONNECTED", number });
          return;
        }
        later(PAIRING_POLL_MS, waitForScan);
      };

      if (await paired()) {
        connected = true;
        await sink.emit({ type: "connection", status: "CONNECTED", number });
      } else {
        await sink.emit({ type: "connection", status: "OPENING" });
        const qrcode = `atende-simulator:${connection.id}:${crypto.randomBytes(12).toString("base64url")}`;
        await sink.emit({ type: "connection", status: "qrcode", qrcode, retries: 1 });
        later(PAIRING_POLL_MS, waitForScan);
      }

      const requireConnected = () => {
        if (!connected || stopped)
          throw new ChannelError(
            "the simulator connection is not connected",
            true,
            "ERR_WAPP_NOT_INITIALIZED",
          );
      };

      return {
        async send(message: OutboundMessage) {
          requireConnected();
          if (!simulatorKnowsNumber(message.to.number)) {
            throw new ChannelError("this number is not on WhatsApp", false, "ERR_WAPP_INVALID_CONTACT");
          }
          // The id we chose, as WhatsApp Web keeps it: the phone shows a message sent again under the
          // same id (a send retried after a crash) once, as WhatsApp does.
          const id = message.id ?? `SIM${crypto.randomBytes(10).toString("hex").toUpperCase()}`;
          const media = message.media
            ? await deps.media.save(connection.companyId, message.media.data, message.media.mimetype)
            : null;
          await deps.phones.record({
            companyId: connection.companyId,
            whatsappId: connection.id,
            number: message.to.number,
            direction: "out",
            providerId: id,
            body: message.body,
            kind: message.media?.kind ?? "text",
            // The phone keeps the type it was sent as (a voice note: audio/ogg; codecs=opus).
            media: media
              ? {
                  filename: message.media!.filename,
                  mimetype: message.media!.mimetype,
                  path: media.path,
                  ...(message.media!.voiceNote ? { voiceNote: true } : {}),
                }
              : null,
            quotedId: message.quotedId ?? null,
            ack: 1,
            createdAt: deps.now(),
          });
          later(DELIVERY_DELAY_MS, async () => {
            await deps.phones.advance(connection.id, "out", 3, { ids: [id] });
            await sink.emit({ type: "ack", id, ack: 3 });
          });
          return { id };
        },
        async react(to, targetId, _fromMe, emoji) {
          requireConnected();
          await deps.phones.record({
            companyId: connection.companyId,
            whatsappId: connection.id,
            number: to.number,
            direction: "out",
            providerId: `SIM${crypto.randomBytes(10).toString("hex").toUpperCase()}`,
            body: emoji,
            kind: "reaction",
            quotedId: targetId,
            ack: 3,
            createdAt: deps.now(),
          });
        },
        async edit(_to, targetId, body) {
          requireConnected();
          await deps.phones.change(connection.id, targetId, { body });
        },
        async deleteForEveryone(_to, targetId) {
          requireConnected();
          await deps.phones.change(connection.id, targetId, { isDeleted: true });
        },
        async typing(to, state) {
          deps.phones.showPresence(connection.id, to.number, state);
        },
        async watchPresence(chat) {
          deps.phones.watchPresence(connection.id, chat.number);
        },
        async markRead(chat, ids) {
          await deps.phones.advance(connection.id, "in", 4, { ids, number: chat.number });
        },
        async rejectCall(_from, callId) {
          requireConnected();
          // The phone shows its call as declined.
          await deps.phones.change(connection.id, callId, { kind: "call_rejected" });
        },
        async checkNumber(n) {
          requireConnected();
          return simulatorKnowsNumber(n) ? { number: n, isGroup: false } : null;
        },
        async profilePicture() {
          return null;
        },
        /** A code in WhatsApp's shape; the simulated phone still pairs with the page's "scan". */
        async requestPairingCode() {
          if (connected || stopped) {
            throw new ChannelError("already paired", false, "ERR_WAPP_PAIRING_NOT_WAITING");
          }
          return Array.from(crypto.randomBytes(8), (b) => PAIRING_ALPHABET[b % PAIRING_ALPHABET.length]).join(
            "",
          );
        },
        async stop() {
          stopped = true;
          for (const t of timers) clearTimeout(t);
          timers.clear();
        },
        async logout() {
          stopped = true;
          for (const t of timers) clearTimeout(t);
          await store.clear();
        },
      };
    },
  };
}

import type { WAMessageKey } from "./lib.js";
import { normalizeNumber } from "../numbers.js";
import { type AuthStore, ChannelError, type ChannelAddress, type ChannelSession } from "../provider.js";
import { toChannelError } from "./errors.js";
import { addressToJid, jidToAddress } from "./jid.js";
import { type NumberCheckOptions, NumberDirectory } from "./numberDirectory.js";
import { outboundContent, sendOptions } from "./outbound.js";
import type { BaileysSocket, SocketSupervisor } from "./supervisor.js";

/**
 * The ChannelSession of a Baileys connection: every call goes to the supervisor's open socket. The
 * number checks' answers are kept in the connection's store (the company's, in the database).
 */
export function baileysSession(
  supervisor: SocketSupervisor,
  store?: Pick<AuthStore, "get" | "set">,
  numberChecks?: NumberCheckOptions,
): ChannelSession {
  const directory = new NumberDirectory(
    (numbers) => supervisor.openSocket().onWhatsApp(...numbers),
    store,
    numberChecks,
  );

  /** Runs a socket call; its failure becomes a ChannelError the outbound queue can act on. */
  async function attempt<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      throw toChannelError(err);
    }
  }

  const key = (jid: string, id: string, fromMe: boolean): WAMessageKey => ({ remoteJid: jid, id, fromMe });

  /** Sends, and keeps what went for the phone's resend requests. */
  async function sendKept(...args: Parameters<BaileysSocket["sendMessage"]>) {
    const sent = await supervisor.openSocket().sendMessage(...args);
    await supervisor.sent.keep(sent);
    return sent;
  }

  async function checkNumbers(
    numbers: string[],
    ahead: string[] = [],
  ): Promise<Map<string, ChannelAddress | null>> {
    const normalized = new Map(numbers.map((n) => [n, normalizeNumber(n)]));
    let jids: Map<string, string | null>;
    try {
      jids = await directory.resolveMany(
        [...normalized.values()].filter(Boolean),
        ahead.map((n) => normalizeNumber(n)).filter(Boolean),
      );
    } catch (err) {
      throw toChannelError(err, "ERR_WAPP_CHECK_CONTACT");
    }
    return new Map(
      numbers.map((n) => {
        const jid = jids.get(normalized.get(n)!);
        return [n, jid ? jidToAddress(jid) : null];
      }),
    );
  }

  return {
    async send(message) {
      return attempt(async () => {
        supervisor.openSocket(); // not connected: refused before any lookup
        const jid = await directory.jidFor(message.to);
        const sent = await sendKept(
          jid,
          outboundContent(message),
          sendOptions(jid, message, (id) => supervisor.authors.of(id)),
        );
        const id = sent?.key.id;
        if (!id) throw new ChannelError("WhatsApp answered no message id", false);
        return { id };
      });
    },

    async react(to, targetId, targetFromMe, emoji) {
      await attempt(async () => {
        const jid = await directory.jidFor(to);
        await sendKept(jid, { react: { text: emoji, key: key(jid, targetId, targetFromMe) } });
      });
    },

    async edit(to, targetId, body) {
      await attempt(async () => {
        const jid = await directory.jidFor(to);
        await sendKept(jid, { text: body, edit: key(jid, targetId, true) });
      });
    },

    async deleteForEveryone(to, targetId, targetFromMe) {
      await attempt(async () => {
        const jid = await directory.jidFor(to);
        await sendKept(jid, { delete: key(jid, targetId, targetFromMe) });
      });
    },

    async typing(to, state) {
      await attempt(async () => {
        const jid = await directory.jidFor(to);
        await supervisor.openSocket().sendPresenceUpdate(state, jid);
      });
    },

    async markRead(chat, ids) {
      if (ids.length === 0) return;
      await attempt(async () => {
        const jid = await directory.jidFor(chat);
        // In a group, each receipt names the message's author, or WhatsApp does not count it.
        const keyOf = (id: string): WAMessageKey => {
          const participant = chat.isGroup ? supervisor.authors.of(id) : undefined;
          return participant ? { ...key(jid, id, false), participant } : key(jid, id, false);
        };
        await supervisor.openSocket().readMessages(ids.map(keyOf));
      });
    },

    async rejectCall(from, callId) {
      await attempt(async () => {
        // The call came from the caller's privacy id when that is all WhatsApp showed of them.
        const jid = from.lid && !from.number ? `${from.lid}@lid` : await directory.jidFor(from);
        await supervisor.openSocket().rejectCall(callId, jid);
      });
    },

    async checkNumber(number): Promise<ChannelAddress | null> {
      return (await checkNumbers([number])).get(number) ?? null;
    },

    checkNumbers,

    async profilePicture(address) {
      try {
        return (await supervisor.openSocket().profilePictureUrl(addressToJid(address), "image")) ?? null;
      } catch {
        return null; // no picture, hidden by privacy settings, or not connected: all the same to the inbox
      }
    },

    requestPairingCode: (number) => supervisor.requestPairingCode(number),
    watchPresence: (address) => supervisor.watchPresence(address),

    stop: () => supervisor.stop(),
    logout: () => supervisor.logout(),
  };
}

import { jidDecode, jidNormalizedUser } from "@whiskeysockets/baileys";
import { normalizeNumber, numberVariants } from "../numbers.js";
import { ChannelError, type ChannelAddress } from "../provider.js";

/**
 * Baileys jids ↔ Atende addresses.
 *
 * WhatsApp names a person by phone number (`5511987654321@s.whatsapp.net`) or, more and more, by a
 * privacy id (`123456789012345@lid`); Baileys 7 hands the other form as an "alt" jid when the
 * server sent it (`key.remoteJidAlt`, `key.participantAlt`, `callerPn`, `contact.phoneNumber`).
 */

/** The address of a person or group jid; null for what Atende does not serve (status, broadcast lists, newsletters). */
export function jidToAddress(jid: string | null | undefined, altJid?: string | null): ChannelAddress | null {
  const decoded = jidDecode(jid ? jidNormalizedUser(jid) : undefined);
  if (!decoded?.user) return null;
  const alt = jidDecode(altJid ? jidNormalizedUser(altJid) : undefined);
  switch (decoded.server) {
    case "g.us":
      return { number: decoded.user, isGroup: true };
    case "lid":
    case "hosted.lid": {
      const phone = alt && isPhoneServer(alt.server) ? normalizeNumber(alt.user) : "";
      return { number: phone, isGroup: false, lid: decoded.user };
    }
    case "s.whatsapp.net":
    case "c.us":
    case "hosted": {
      const address: ChannelAddress = { number: normalizeNumber(decoded.user), isGroup: false };
      if (alt && isLidServer(alt.server)) address.lid = alt.user;
      return address;
    }
    default:
      return null;
  }
}

function isPhoneServer(server: string): boolean {
  return server === "s.whatsapp.net" || server === "c.us" || server === "hosted";
}

function isLidServer(server: string): boolean {
  return server === "lid" || server === "hosted.lid";
}

/** The jid to send to, from the address alone (no lookup): phone number first, LID when it is all we know. */
export function addressToJid(address: ChannelAddress): string {
  if (address.isGroup) {
    if (/^\d+(-\d+)?$/.test(address.number)) return `${address.number}@g.us`;
  } else if (address.number) {
    if (/^\d+$/.test(address.number)) return `${address.number}@s.whatsapp.net`;
  } else if (address.lid && /^\d+$/.test(address.lid)) {
    return `${address.lid}@lid`;
  }
  throw new ChannelError(
    `Not a WhatsApp address: ${JSON.stringify(address)}`,
    false,
    "ERR_WAPP_INVALID_CONTACT",
  );
}

/** `sock.onWhatsApp`: the jids WhatsApp knows among the given phone numbers. */
export type WhatsAppLookup = (numbers: string[]) => Promise<{ jid: string; exists: boolean }[] | undefined>;

const MAX_CACHED_NUMBERS = 5000;

/**
 * Which jid WhatsApp uses for a number. A Brazilian mobile registered before the ninth digit still
 * has an 8-digit jid (55 DD 8XXXXXXX), and a message sent to the 9-digit form never arrives; so
 * numbers with two possible forms are asked to WhatsApp once, and the answer is kept.
 */
export class NumberDirectory {
  private readonly jids = new Map<string, string>();

  constructor(private readonly lookup: WhatsAppLookup) {}

  /** The canonical jid of a normalised number, or null when it is not on WhatsApp. Throws when WhatsApp cannot be asked. */
  async resolve(normalized: string): Promise<string | null> {
    const cached = this.jids.get(normalized);
    if (cached) return cached;
    const found = (await this.lookup(numberVariants(normalized)))?.find((r) => r.exists);
    if (!found) return null;
    const jid = jidNormalizedUser(found.jid);
    this.remember(normalized, jid);
    return jid;
  }

  /** The jid to send to; numbers with a single form skip the lookup. */
  async jidFor(address: ChannelAddress): Promise<string> {
    const direct = addressToJid(address);
    if (address.isGroup || !address.number || numberVariants(address.number).length < 2) return direct;
    let resolved: string | null;
    try {
      resolved = await this.resolve(address.number);
    } catch {
      return direct; // the lookup is an improvement, not a condition: the plain jid may well work
    }
    if (!resolved) {
      throw new ChannelError(`${address.number} is not on WhatsApp`, false, "ERR_WAPP_INVALID_CONTACT");
    }
    return resolved;
  }

  private remember(normalized: string, jid: string): void {
    if (this.jids.size >= MAX_CACHED_NUMBERS) {
      const oldest = this.jids.keys().next().value;
      if (oldest !== undefined) this.jids.delete(oldest);
    }
    this.jids.set(normalized, jid);
  }
}

import { jidDecode, jidNormalizedUser } from "./lib.js";
import { normalizeNumber } from "../numbers.js";
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

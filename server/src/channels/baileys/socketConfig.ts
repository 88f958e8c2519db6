import { Browsers, DEFAULT_CACHE_TTLS, isJidNewsletter, isJidStatusBroadcast } from "./lib.js";
import { TtlCache } from "./ttlCache.js";

/**
 * How the sessions present themselves: Baileys' own default, a standard browser. WhatsApp checks the
 * browser a pairing-code request names (companion_platform_id / _display): a made-up one ("Atende")
 * is answered 400 while Baileys still hands back a code made locally that never pairs. The phone
 * lists the device as "Chrome (Mac OS)".
 */
export const BROWSER = Browsers.macOS("Chrome");

/**
 * Chats Atende never serves: status updates and channels (newsletters). Baileys acknowledges their
 * messages without decrypting them, so no session key is written for them and nothing is handed on.
 */
export function shouldIgnoreJid(jid: string): boolean {
  return Boolean(isJidStatusBroadcast(jid) || isJidNewsletter(jid));
}

/**
 * The caches Baileys would otherwise make anew inside every socket: how often each message was
 * asked again (a retry loop stops after maxMsgRetryCount) and each contact's devices. Kept by the
 * connection's supervisor, they outlive reconnects; same lifetimes as Baileys' own.
 */
export function sessionCaches() {
  return {
    msgRetryCounterCache: new TtlCache(DEFAULT_CACHE_TTLS.MSG_RETRY * 1000),
    userDevicesCache: new TtlCache(DEFAULT_CACHE_TTLS.USER_DEVICES * 1000),
  };
}

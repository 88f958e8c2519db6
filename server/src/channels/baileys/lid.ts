import { isJidGroup, isLidUser, isPnUser, type LIDMapping, type WAMessage } from "./lib.js";
import type { ChannelEvent } from "../provider.js";
import { jidToAddress } from "./jid.js";
import type { BaileysLogger } from "./logger.js";

/**
 * WhatsApp names a customer by phone number or by LID, and sends the other half with a message only
 * sometimes. Baileys 7 keeps every pair it learns (from messages, history, app-state sync, USync) in
 * its LID mapping store, which lives in the auth store (our database): asked before a message goes
 * to the pipeline, it tells the half the message lacks, so the pipeline finds one contact.
 */

/** The part of Baileys' `signalRepository.lidMapping` Atende asks. */
export type LidMappingStore = {
  getPNForLID(lid: string): Promise<string | null>;
  getLIDForPN(pn: string): Promise<string | null>;
};

/** A number WhatsApp knows no LID for is not asked again for this long (getLIDForPN may ask the server). */
const NO_LID_RETRY_MS = 10 * 60_000;
const MAX_REMEMBERED = 5000;

export class AltJids {
  private readonly withoutLid = new Map<string, number>();

  constructor(
    private readonly store: () => LidMappingStore | undefined,
    private readonly logger: BaileysLogger,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The other jid of a person's jid (the phone jid of a LID, the LID of a phone jid), or undefined
   * when it is not known. Never throws: without it the message still goes, by the half it has.
   */
  async of(jid: string | null | undefined): Promise<string | undefined> {
    const store = this.store();
    if (!jid || !store || isJidGroup(jid)) return undefined;
    try {
      if (isLidUser(jid)) return (await store.getPNForLID(jid)) ?? undefined;
      if (!isPnUser(jid)) return undefined;
      const askedAt = this.withoutLid.get(jid);
      if (askedAt !== undefined && this.now() - askedAt < NO_LID_RETRY_MS) return undefined;
      const lid = await store.getLIDForPN(jid);
      if (lid) this.withoutLid.delete(jid);
      else this.remember(jid);
      return lid ?? undefined;
    } catch (err) {
      this.logger.debug({ err, jid }, "baileys: LID mapping lookup failed");
      return undefined;
    }
  }

  /** A 1:1 message's chat alt jid: the one WhatsApp sent, else the one the mapping store knows. */
  async chatAlt(message: WAMessage): Promise<string | undefined> {
    const { remoteJid, remoteJidAlt } = message.key;
    if (remoteJidAlt || !remoteJid || isJidGroup(remoteJid)) return remoteJidAlt ?? undefined;
    return this.of(remoteJid);
  }

  /** A call's caller, as a phone jid and a LID when either can be known. */
  async callerAlt(from: string, callerPn: string | undefined): Promise<string | undefined> {
    return callerPn ?? (await this.of(from));
  }

  private remember(jid: string) {
    if (this.withoutLid.size >= MAX_REMEMBERED) {
      const oldest = this.withoutLid.keys().next().value;
      if (oldest !== undefined) this.withoutLid.delete(oldest);
    }
    this.withoutLid.set(jid, this.now());
  }
}

/**
 * `lid-mapping.update`: WhatsApp told which number a LID belongs to. As a contact event with both
 * halves, so the pipeline makes one contact of a customer it may know as two.
 */
export function mapLidMapping({ lid, pn }: LIDMapping): ChannelEvent | null {
  const address = isLidUser(lid) ? jidToAddress(lid, pn) : jidToAddress(pn, lid);
  if (!address || address.isGroup || !address.number || !address.lid) return null;
  return { type: "contact", address };
}

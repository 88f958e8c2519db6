import {
  proto,
  type BaileysEventMap,
  type Contact,
  type MessageUserReceiptUpdate,
  type WACallEvent,
  type WAMessageUpdate,
} from "./lib.js";
import { ACK } from "@atende/contracts";
import type { ChannelEvent } from "../provider.js";
import { jidToAddress } from "./jid.js";

const Status = proto.WebMessageInfo.Status;

/**
 * A status change of a message we sent (`messages.update`) as an ack. Baileys' status numbers are
 * Atende's ack scale (PENDING 1 → sent, SERVER_ACK 2, DELIVERY_ACK 3, READ 4, PLAYED 5); ERROR (0)
 * becomes ack 0 with the error WhatsApp gave. Statuses of received messages (read on the phone) are
 * not acks of ours.
 */
export function mapStatusUpdate({ key, update }: WAMessageUpdate): ChannelEvent | null {
  if (!key.id || !key.fromMe || update.status === null || update.status === undefined) return null;
  if (update.status === Status.ERROR) {
    const reason: unknown = update.messageStubParameters?.[0];
    return {
      type: "ack",
      id: key.id,
      ack: ACK.pending,
      error: typeof reason === "string" ? reason : "ERROR",
    };
  }
  return { type: "ack", id: key.id, ack: Math.min(update.status, ACK.played) };
}

/** In groups WhatsApp reports receipts per participant (`message-receipt.update`): the first one counts. */
export function mapGroupReceipt({ key, receipt }: MessageUserReceiptUpdate): ChannelEvent | null {
  if (!key.id || !key.fromMe) return null;
  if (receipt.playedTimestamp) return { type: "ack", id: key.id, ack: ACK.played };
  if (receipt.readTimestamp) return { type: "ack", id: key.id, ack: ACK.read };
  if (receipt.receiptTimestamp) return { type: "ack", id: key.id, ack: ACK.delivered };
  return null;
}

/** Typing, recording, stopped typing ("paused" reads as "available"); "unavailable" is not shown. */
export function mapPresence({ id, presences }: BaileysEventMap["presence.update"]): ChannelEvent | null {
  const chat = jidToAddress(id);
  if (!chat) return null;
  const latest = Object.values(presences).at(-1)?.lastKnownPresence;
  switch (latest) {
    case "composing":
    case "recording":
    case "available":
      return { type: "presence", chat, presence: latest };
    case "paused":
      return { type: "presence", chat, presence: "available" };
    default:
      return null;
  }
}

/**
 * A contact's name (saved on the phone, else the one they set) and picture, when WhatsApp told us
 * one, or its number and LID together.
 */
export function mapContact(contact: Partial<Contact>): ChannelEvent | null {
  const address = jidToAddress(contact.id, contact.phoneNumber ?? contact.lid);
  if (!address || address.isGroup) return null;
  const event: Extract<ChannelEvent, { type: "contact" }> = { type: "contact", address };
  const name = contact.name || contact.notify || contact.verifiedName;
  if (name) event.name = name;
  // imgUrl is "changed" when only the fact is known; the pipeline asks for the new one itself.
  if (contact.imgUrl?.startsWith("http")) event.profilePicUrl = contact.imgUrl;
  // Both halves of the address tell the pipeline a LID's number, even without a name.
  return event.name || event.profilePicUrl || (address.number && address.lid) ? event : null;
}

/** An incoming call being offered; the later states (ringing, timeout, reject...) say nothing new. */
export function mapCall(call: WACallEvent): ChannelEvent | null {
  if (call.status !== "offer") return null;
  const from = jidToAddress(call.from, call.callerPn);
  if (!from) return null;
  return { type: "call", from, isVideo: call.isVideo === true, at: call.date, callId: call.id };
}
